"""DQN with prioritized replay and a soft-updated target network."""
import random
from collections import deque

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
random.seed(0)


class PrioritizedReplay:
    def __init__(self, capacity=64):
        self.buffer = deque(maxlen=capacity)
        self.priorities = {}

    def push(self, *transition):
        self.buffer.append(transition)
        self.priorities[len(self.buffer) - 1] = 1.0

    def sample(self, n):
        idx = random.sample(range(len(self.buffer)), n)
        batch = [self.buffer[i] for i in idx]
        return idx, [torch.stack(t) for t in zip(*batch)]

    def update_priorities(self, idx, td_errors):
        for i, e in zip(idx, td_errors):
            self.priorities[i] = e + 1e-3


def q_net():
    return nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 2))


policy_net, target_net = q_net(), q_net()
target_net.load_state_dict(policy_net.state_dict())
opt = torch.optim.Adam(policy_net.parameters(), lr=1e-3)
replay, replay_ok = PrioritizedReplay(), PrioritizedReplay()
q_values_log, actions_log = [], []
tau, gamma = 0.05, 0.9
state = torch.randn(4)
for step in range(12):
    q = policy_net(state.unsqueeze(0))
    action = q.max(1).indices
    q_values_log.append(q.max(1).values)  # expect: TEN501
    actions_log.append(q.max(1).indices)  # ok
    next_state, reward, done = torch.randn(4), torch.tensor(float(action.item() == 0)), torch.tensor(0.0)
    replay.push(state, action.squeeze(0), reward, next_state, done)  # ok
    replay_ok.push(state, action.squeeze(0), reward, next_state, done)
    state = next_state
    if len(replay.buffer) < 6:
        continue
    idx, (s, a, r, s2, d) = replay.sample(4)
    q_sa = policy_net(s).gather(1, a.view(-1, 1)).squeeze(1)
    with torch.no_grad():
        target = r + gamma * (1 - d) * target_net(s2).max(1).values
    td = (q_sa - target).abs()
    loss = F.smooth_l1_loss(q_sa, target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    replay.update_priorities(idx, td)  # expect: TEN501
    replay_ok.update_priorities(idx, td.detach())  # ok
    with torch.no_grad():
        for tp, p in zip(target_net.parameters(), policy_net.parameters()):
            tp.mul_(1 - tau).add_(tau * p)  # ok
print(len(q_values_log), len(replay.priorities))
