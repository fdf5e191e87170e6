"""n-step advantage actor-critic (A2C) on a small chain world, with a stats dict for logging."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

torch.manual_seed(0)
torch.set_num_threads(1)


class ChainEnv:
    """Walk on positions 0..n-1; reward 1 at the right end, small cost per step."""

    def __init__(self, n=8, max_steps=30):
        self.n = n
        self.max_steps = max_steps

    def obs(self):
        o = torch.zeros(self.n)
        o[self.pos] = 1.0
        return o

    def reset(self):
        self.pos = 0
        self.t = 0
        return self.obs()

    def step(self, action):
        self.pos = max(0, min(self.n - 1, self.pos + (1 if action == 1 else -1)))
        self.t += 1
        done = self.pos == self.n - 1 or self.t >= self.max_steps
        reward = 1.0 if self.pos == self.n - 1 else -0.01
        return self.obs(), reward, done


class ActorCritic(nn.Module):
    def __init__(self, n_obs, n_act, hidden=32):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_obs, hidden), nn.Tanh())
        self.pi = nn.Linear(hidden, n_act)
        self.v = nn.Linear(hidden, 1)

    def forward(self, x):
        h = self.body(x)
        return Categorical(logits=self.pi(h)), self.v(h).squeeze(-1)


def compute_returns(next_value, rewards, masks, gamma=0.99):
    R = next_value
    returns = []
    for step in reversed(range(len(rewards))):
        R = rewards[step] + gamma * R * masks[step]
        returns.insert(0, R)
    return returns


class A2CAgent:
    def __init__(self, env, n_steps=5):
        self.env = env
        self.n_steps = n_steps
        self.net = ActorCritic(env.n, 2)
        self.opt = torch.optim.RMSprop(self.net.parameters(), lr=7e-3)
        self.stats = defaultdict(list)
        self.value_trace = []
        self.obs = env.reset()
        self.ep_return = 0.0
        self.episode_returns = []

    def rollout_and_update(self):
        log_probs, values, rewards, masks = [], [], [], []
        entropy = 0
        for _ in range(self.n_steps):
            dist, value = self.net(self.obs)
            action = dist.sample()
            next_obs, reward, done = self.env.step(action.item())
            log_probs.append(dist.log_prob(action))  # either
            values.append(value)  # either
            rewards.append(reward)
            masks.append(0.0 if done else 1.0)
            entropy += dist.entropy()  # either
            self.value_trace.append(value)  # expect: TEN501
            self.ep_return += reward
            if done:
                self.episode_returns.append(self.ep_return)
                self.ep_return = 0.0
                next_obs = self.env.reset()
            self.obs = next_obs

        with torch.no_grad():
            _, next_value = self.net(self.obs)
        returns = torch.stack(compute_returns(next_value, rewards, masks))
        log_probs = torch.stack(log_probs)
        values = torch.stack(values)
        advantage = returns - values
        actor_loss = -(log_probs * advantage.detach()).mean()
        critic_loss = advantage.pow(2).mean()
        loss = actor_loss + 0.5 * critic_loss - 0.001 * entropy
        self.opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(self.net.parameters(), 0.5)
        self.opt.step()

        self.stats["value_loss"].append(critic_loss)  # expect: TEN501
        self.stats["policy_loss"].append(actor_loss.item())  # ok
        self.stats["entropy"].append(entropy.detach() / self.n_steps)  # ok
        self.stats["advantage"].append(advantage.mean())  # expect: TEN501


def main():
    agent = A2CAgent(ChainEnv())
    for update in range(60):
        agent.rollout_and_update()
    s = agent.stats
    print("episodes:", len(agent.episode_returns), "last returns:", [round(r, 2) for r in agent.episode_returns[-3:]])
    print("value loss (first, last):", s["value_loss"][0].item(), s["value_loss"][-1].item())
    print("policy loss mean:", sum(s["policy_loss"]) / len(s["policy_loss"]))
    print("entropy mean:", torch.stack(s["entropy"]).mean().item(), "adv mean:", torch.stack(s["advantage"]).mean().item())
    print("values seen:", torch.stack(agent.value_trace).mean().item())


if __name__ == "__main__":
    main()
