"""Synchronous advantage actor-critic with n-step returns."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical


class A2CNet(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=256):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU())
        self.pi = nn.Linear(hidden, n_actions)
        self.v = nn.Linear(hidden, 1)

    def forward(self, x):
        h = self.body(x)
        return Categorical(logits=self.pi(h)), self.v(h)


def compute_returns(next_value, rewards, masks, gamma=0.99):
    R = next_value
    returns = []
    for step in reversed(range(len(rewards))):
        R = rewards[step] + gamma * R * masks[step]
        returns.insert(0, R)  # ok
    return returns


def train(env, model, optimizer, num_updates, n_steps=5, gamma=0.99, log_every=100):
    all_entropies = []
    value_trace = []
    episode_returns = []
    state, _ = env.reset()
    ep_ret = 0.0
    for update in range(num_updates):
        log_probs, values, rewards, masks = [], [], [], []
        entropy = 0
        for _ in range(n_steps):
            s = torch.as_tensor(state, dtype=torch.float32)
            dist, value = model(s)
            action = dist.sample()
            next_state, reward, terminated, truncated, _ = env.step(action.item())
            done = terminated or truncated

            log_probs.append(dist.log_prob(action).unsqueeze(0))  # ok
            values.append(value)  # ok
            entropy += dist.entropy().mean()  # ok
            rewards.append(torch.tensor([reward], dtype=torch.float32))  # ok
            masks.append(torch.tensor([1.0 - float(done)]))  # ok
            value_trace.append(value.squeeze())  # expect: TEN501

            ep_ret += reward  # ok
            state = next_state
            if done:
                episode_returns.append(ep_ret)  # ok
                ep_ret = 0.0
                state, _ = env.reset()

        _, next_value = model(torch.as_tensor(state, dtype=torch.float32))
        returns = compute_returns(next_value.detach(), rewards, masks, gamma)

        log_probs = torch.cat(log_probs)
        returns = torch.cat(returns)
        values = torch.cat(values)
        advantage = returns - values
        actor_loss = -(log_probs * advantage.detach()).mean()
        critic_loss = advantage.pow(2).mean()
        loss = actor_loss + 0.5 * critic_loss - 0.001 * entropy

        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 0.5)
        optimizer.step()
        all_entropies.append(entropy)  # expect: TEN501

        if update % log_every == 0 and episode_returns:
            print(f"update {update} mean return {sum(episode_returns[-10:]) / len(episode_returns[-10:]):.1f}")
    return episode_returns, all_entropies, value_trace
