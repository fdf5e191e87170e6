"""DQN with a small proportional-priority replay on a synthetic chain MDP."""
import copy
import random

import torch
import torch.nn as nn


class ChainEnv:
    def __init__(self, n=6):
        self.n = n
        self.pos = 0

    def reset(self):
        self.pos = 0
        return self._obs()

    def _obs(self):
        o = torch.zeros(self.n)
        o[self.pos] = 1.0
        return o

    def step(self, action):
        self.pos = max(0, min(self.n - 1, self.pos + (1 if action == 1 else -1)))
        done = self.pos == self.n - 1
        return self._obs(), (1.0 if done else -0.01), done


class PrioritizedReplay:
    def __init__(self, capacity=1000):
        self.capacity = capacity
        self.data, self.priorities = [], []

    def push(self, transition):
        if len(self.data) >= self.capacity:
            del self.data[0]
            del self.priorities[0]
        self.data.append(transition)
        self.priorities.append(1.0)

    def sample(self, k):
        weights = [float(p) for p in self.priorities]
        idx = random.choices(range(len(self.data)), weights=weights, k=k)
        return idx, [self.data[i] for i in idx]

    def update(self, idx, new_prios):
        for i, p in zip(idx, new_prios):
            self.priorities[i] = p


class DQNAgent:
    def __init__(self, n_obs, n_act, gamma=0.95, lr=1e-2):
        self.q = nn.Sequential(nn.Linear(n_obs, 32), nn.ReLU(), nn.Linear(32, n_act))
        self.target = copy.deepcopy(self.q)
        self.opt = torch.optim.Adam(self.q.parameters(), lr=lr)
        self.replay = PrioritizedReplay()
        self.gamma, self.eps = gamma, 0.5
        self.q_trace, self.q_pred_means, self.losses, self.td_max = [], [], [], []

    def act(self, obs):
        with torch.no_grad():
            q = self.q(obs)
        self.q_trace.append(q.max())  # ok
        if random.random() < self.eps:
            return random.randrange(q.numel())
        return int(q.argmax())

    def learn(self, batch_size=8):
        if len(self.replay.data) < batch_size:
            return
        idx, batch = self.replay.sample(batch_size)
        s = torch.stack([b[0] for b in batch])
        a = torch.tensor([b[1] for b in batch])
        r = torch.tensor([b[2] for b in batch])
        s2 = torch.stack([b[3] for b in batch])
        d = torch.tensor([float(b[4]) for b in batch])
        q_pred = self.q(s).gather(1, a.unsqueeze(1)).squeeze(1)
        with torch.no_grad():
            target = r + self.gamma * (1 - d) * self.target(s2).max(1).values
        td = q_pred - target
        loss = 0.5 * td.pow(2).mean()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.replay.update(idx, td.abs() + 1e-3)  # expect: TEN501
        self.q_pred_means.append(q_pred.mean())  # expect: TEN501
        self.losses.append(loss.item())  # ok
        self.td_max.append(td.detach().abs().max())  # ok


if __name__ == "__main__":
    random.seed(0)
    torch.manual_seed(0)
    env, agent = ChainEnv(), DQNAgent(6, 2)
    for episode in range(3):
        obs = env.reset()
        for t in range(12):
            action = agent.act(obs)
            nxt, reward, done = env.step(action)
            agent.replay.push((obs, action, reward, nxt, done))  # ok
            agent.learn()
            obs = nxt
            if done:
                break
        agent.target.load_state_dict(agent.q.state_dict())
    print(len(agent.losses), sum(agent.losses) / max(1, len(agent.losses)))
