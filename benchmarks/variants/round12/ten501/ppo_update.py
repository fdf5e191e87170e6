from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical


class ActorCritic(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=64):
        super().__init__()
        self.actor = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, n_actions))
        self.critic = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def dist(self, state):
        return Categorical(logits=self.actor(state))

    def value(self, state):
        return self.critic(state)

    def evaluate(self, states, actions):
        d = self.dist(states)
        return d.log_prob(actions), self.critic(states), d.entropy()


class RolloutBuffer:
    def __init__(self):
        self.clear()

    def clear(self):
        self.states, self.actions, self.logprobs = [], [], []
        self.rewards, self.values, self.dones = [], [], []


class PPO:
    def __init__(self, obs_dim, n_actions, lr=3e-4, gamma=0.99, k_epochs=4, eps_clip=0.2):
        self.gamma, self.k_epochs, self.eps_clip = gamma, k_epochs, eps_clip
        self.policy = ActorCritic(obs_dim, n_actions)
        self.policy_old = ActorCritic(obs_dim, n_actions)
        self.policy_old.load_state_dict(self.policy.state_dict())
        self.optimizer = torch.optim.Adam(self.policy.parameters(), lr=lr)
        self.buffer = RolloutBuffer()
        self.stats = defaultdict(list)

    def select_action(self, state):
        with torch.no_grad():
            state = torch.as_tensor(state, dtype=torch.float32)
            dist = self.policy_old.dist(state)
            action = dist.sample()
            logprob = dist.log_prob(action)
            value = self.policy_old.value(state)
        self.buffer.states.append(state)  # ok
        self.buffer.actions.append(action)  # ok
        self.buffer.logprobs.append(logprob)  # ok
        self.buffer.values.append(value)  # ok
        return action.item()

    def _returns(self):
        returns, discounted = [], 0.0
        for reward, done in zip(reversed(self.buffer.rewards), reversed(self.buffer.dones)):
            if done:
                discounted = 0.0
            discounted = reward + self.gamma * discounted
            returns.insert(0, discounted)  # ok
        returns = torch.tensor(returns, dtype=torch.float32)
        return (returns - returns.mean()) / (returns.std() + 1e-7)

    def update(self):
        returns = self._returns()
        old_states = torch.stack(self.buffer.states)
        old_actions = torch.stack(self.buffer.actions)
        old_logprobs = torch.stack(self.buffer.logprobs)
        old_values = torch.stack(self.buffer.values).squeeze(-1)
        advantages = returns - old_values

        for _ in range(self.k_epochs):
            logprobs, values, entropy = self.policy.evaluate(old_states, old_actions)
            ratios = torch.exp(logprobs - old_logprobs)
            surr1 = ratios * advantages
            surr2 = torch.clamp(ratios, 1 - self.eps_clip, 1 + self.eps_clip) * advantages
            policy_loss = -torch.min(surr1, surr2).mean()
            value_loss = F.mse_loss(values.squeeze(-1), returns)
            loss = policy_loss + 0.5 * value_loss - 0.01 * entropy.mean()
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()

            self.stats["policy_loss"].append(policy_loss.item())  # ok
            self.stats["value_loss"].append(value_loss)  # expect: TEN501
            self.stats["entropy"].append(entropy.mean().detach())  # ok
            approx_kl = (old_logprobs - logprobs).mean()
            self.stats["approx_kl"].append(approx_kl)  # expect: TEN501
            clipfrac = ((ratios - 1.0).abs() > self.eps_clip).float().mean()
            self.stats["clipfrac"].append(clipfrac)  # ok

        self.policy_old.load_state_dict(self.policy.state_dict())
        self.buffer.clear()
