"""DQN with a replay buffer and a target network on a small grid of random features."""
import random
from collections import deque

import torch
import torch.nn as nn
import torch.nn.functional as F


class ToyEnv:
    def __init__(self, n_states=10, n_actions=3):
        self.feats = torch.randn(n_states, 4)
        self.rewards = torch.randn(n_states, n_actions)
        self.n_states, self.n_actions = n_states, n_actions

    def reset(self):
        self.s = random.randrange(self.n_states)
        return self.feats[self.s]

    def step(self, a):
        r = self.rewards[self.s, a].item()
        self.s = (self.s * 3 + a + 1) % self.n_states
        return self.feats[self.s], r, random.random() < 0.1


class DQNAgent:
    def __init__(self, n_actions, gamma=0.9, batch_size=16):
        self.q = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, n_actions))
        self.target = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, n_actions))
        self.target.load_state_dict(self.q.state_dict())
        self.opt = torch.optim.Adam(self.q.parameters(), lr=1e-3)
        self.replay = deque(maxlen=500)
        self.gamma, self.batch_size, self.n_actions = gamma, batch_size, n_actions
        self.q_trace, self.loss_trace = [], []
        self.target_updates = 0

    def act(self, s, eps):
        if random.random() < eps:
            return random.randrange(self.n_actions)
        with torch.no_grad():
            return self.q(s).argmax().item()

    def remember(self, s, a, r, s2, done):
        self.replay.append((s, a, r, s2, done))  # ok

    def learn(self, td_hist):
        if len(self.replay) < self.batch_size:
            return
        batch = random.sample(self.replay, self.batch_size)
        s, a, r, s2, d = zip(*batch)
        s, s2 = torch.stack(s), torch.stack(s2)
        a = torch.tensor(a).unsqueeze(1)
        r = torch.tensor(r)
        d = torch.tensor(d, dtype=torch.float32)
        q_sa = self.q(s).gather(1, a).squeeze(1)
        with torch.no_grad():
            target = r + self.gamma * (1 - d) * self.target(s2).max(1).values
        loss = F.smooth_l1_loss(q_sa, target)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.q_trace.append(q_sa.mean())  # expect: TEN501
        self.loss_trace.append(loss.item())  # ok
        td_hist.append((q_sa - target).abs().detach().mean())  # ok

    def sync_target(self):
        self.target.load_state_dict(self.q.state_dict())
        self.target_updates += 1  # ok


def main(episodes=8):
    random.seed(0)
    torch.manual_seed(0)
    env = ToyEnv()
    agent = DQNAgent(env.n_actions)
    td_hist, eps_hist = [], []
    eps, step = 1.0, 0
    for ep in range(episodes):
        s, done, t = env.reset(), False, 0
        while not done and t < 30:
            a = agent.act(s, eps)
            s2, r, done = env.step(a)
            agent.remember(s, a, r, s2, done)
            agent.learn(td_hist)
            s, t, step = s2, t + 1, step + 1
            if step % 20 == 0:
                agent.sync_target()
        eps = max(0.05, eps * 0.7)
        eps_hist.append(eps)  # ok
    print("updates", len(agent.loss_trace), "target syncs", agent.target_updates)
    print("mean |td|", torch.stack(td_hist).mean().item(), "eps", eps_hist[-1])


if __name__ == "__main__":
    main()
