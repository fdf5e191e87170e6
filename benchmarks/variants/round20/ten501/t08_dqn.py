"""DQN with a replay buffer and a priority array."""
import random
from collections import deque

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
random.seed(0)


class ReplayBuffer:
    def __init__(self, capacity):
        self.memory = deque(maxlen=capacity)

    def push(self, *transition):
        self.memory.append(transition)

    def sample(self, k):
        return random.sample(self.memory, k)

    def __len__(self):
        return len(self.memory)


class DQNAgent:
    def __init__(self, q_net, target_net, optimizer):
        self.q = q_net
        self.target = target_net
        self.opt = optimizer
        self.memory = ReplayBuffer(500)
        self.q_trace = ReplayBuffer(500)
        self.td_losses = []
        self.loss_items = []
        self.priorities = torch.ones(200)
        self.priorities_ok = torch.ones(200)
        self.eps = 1.0

    def act(self, state):
        q_values = self.q(state)
        if random.random() < self.eps:
            action = random.randrange(2)
        else:
            action = int(q_values.argmax())
        return action, q_values

    def learn(self, step):
        batch = self.memory.sample(16)
        s = torch.stack([b[0] for b in batch])
        a = torch.tensor([b[1] for b in batch])
        r = torch.tensor([b[2] for b in batch])
        s2 = torch.stack([b[3] for b in batch])
        done = torch.tensor([b[4] for b in batch])
        q_sa = self.q(s).gather(1, a.unsqueeze(1)).squeeze(1)
        with torch.no_grad():
            target = r + 0.9 * self.target(s2).max(1).values * (1 - done)
        td = q_sa - target
        loss = F.smooth_l1_loss(q_sa, target)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.td_losses.append(loss)  # expect: TEN501
        self.loss_items.append(loss.item())  # ok
        self.priorities[step % 200] = td.abs().mean()  # expect: TEN501
        self.priorities_ok[step % 200] = td.abs().mean().detach()  # ok


q = nn.Sequential(nn.Linear(3, 24), nn.ReLU(), nn.Linear(24, 2))
tgt = nn.Sequential(nn.Linear(3, 24), nn.ReLU(), nn.Linear(24, 2))
tgt.load_state_dict(q.state_dict())
agent = DQNAgent(q, tgt, torch.optim.Adam(q.parameters(), lr=1e-3))

state = torch.randn(3)
for step in range(60):
    action, q_values = agent.act(state)
    next_state = torch.randn(3)
    reward = float(action == int(state[0] > 0))
    done = float(step % 10 == 9)
    agent.memory.push(state, action, reward, next_state, done)  # ok
    agent.q_trace.push(step, q_values.max())  # expect: TEN501
    state = next_state
    agent.eps = max(0.05, agent.eps * 0.95)  # ok
    if len(agent.memory) >= 16:
        agent.learn(step)
    if step % 20 == 0:
        tgt.load_state_dict(q.state_dict())

print("losses", len(agent.td_losses), round(sum(agent.loss_items) / len(agent.loss_items), 5))
print("prio", round(float(agent.priorities.sum()), 4), round(float(agent.priorities_ok.sum()), 4))
print("q trace", len(agent.q_trace), round(float(agent.q_trace.memory[-1][1]), 4))
