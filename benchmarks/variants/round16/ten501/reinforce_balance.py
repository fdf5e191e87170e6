"""Monte-Carlo policy gradient on a toy balancing task (numpy dynamics)."""
import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Categorical

torch.manual_seed(0)


class WobblyStick:
    def __init__(self, seed=0, horizon=40):
        self.rng = np.random.default_rng(seed)
        self.horizon = horizon

    def reset(self):
        self.s = self.rng.normal(0.0, 0.03, size=4)
        self.k = 0
        return self.s.astype(np.float32)

    def step(self, push_right):
        pos, vel, ang, ang_vel = self.s
        f = 1.0 if push_right else -1.0
        ang_vel += 0.05 * (9.8 * np.sin(ang) - f * np.cos(ang))
        vel += 0.02 * f
        self.s = np.array([pos + 0.02 * vel, vel, ang + 0.02 * ang_vel, ang_vel])
        self.k += 1
        fell = abs(self.s[2]) > 0.2 or abs(self.s[0]) > 2.4
        return self.s.astype(np.float32), 1.0, fell or self.k >= self.horizon


class Reinforce:
    def __init__(self, obs_dim=4, n_actions=2, gamma=0.99, lr=1e-2):
        self.pi = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Dropout(0.2), nn.Linear(64, n_actions))
        self.opt = torch.optim.Adam(self.pi.parameters(), lr=lr)
        self.gamma = gamma
        self.episode_logps = []
        self.episode_rewards = []

    def choose(self, obs):
        dist = Categorical(logits=self.pi(torch.as_tensor(obs).unsqueeze(0)))
        a = dist.sample()
        self.episode_logps.append(dist.log_prob(a))  # ok
        return int(a)

    def discounted(self):
        out, g = np.zeros(len(self.episode_rewards), dtype=np.float32), 0.0
        for t in range(len(self.episode_rewards) - 1, -1, -1):
            g = self.episode_rewards[t] + self.gamma * g
            out[t] = g
        out = torch.from_numpy(out)
        return (out - out.mean()) / (out.std() + 1e-8)

    def learn(self):
        advantages = self.discounted()
        terms = []
        for logp, adv in zip(self.episode_logps, advantages):
            terms.append(-logp * adv)  # ok
        objective = torch.cat(terms).sum()
        self.opt.zero_grad()
        objective.backward()
        self.opt.step()
        self.episode_logps, self.episode_rewards = [], []
        return objective


def main():
    env, agent = WobblyStick(), Reinforce()
    avg_len = 10.0
    objectives = []
    for episode in range(1, 16):
        obs, done, length = env.reset(), False, 0
        while not done:
            obs, r, done = env.step(agent.choose(obs))
            agent.episode_rewards.append(r)  # ok
            length += 1
        avg_len = 0.9 * avg_len + 0.1 * length  # ok
        objectives.append(agent.learn())  # expect: TEN501
        if episode % 5 == 0:
            recent = torch.stack(objectives[-5:]).mean().item()
            print(f"episode {episode}: length {length}, smoothed {avg_len:.1f}, objective {recent:.3f}")


if __name__ == "__main__":
    main()
