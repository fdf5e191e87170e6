"""DQN-style agent with a replay buffer and a target network."""
import random
from collections import deque

import torch
import torch.nn as nn
import torch.nn.functional as F


class ReplayBuffer:
    def __init__(self, capacity):
        self.items = deque(maxlen=capacity)

    def add(self, obs, action, reward, q):
        self.items.append((obs, action, reward, q))

    def sample(self, k):
        return random.sample(list(self.items), min(k, len(self.items)))


torch.manual_seed(0)
random.seed(0)
q_net = nn.Linear(4, 2)
target_net = nn.Linear(4, 2)
target_net.load_state_dict(q_net.state_dict())
opt = torch.optim.SGD(q_net.parameters(), lr=0.01)
buffer = ReplayBuffer(100)
clean_buffer = ReplayBuffer(100)
target_vals = []
for t in range(6):
    obs = torch.randn(4)
    q = q_net(obs)
    action = int(q.argmax())
    reward = random.random()
    buffer.add(obs, action, reward, q)  # expect: TEN501
    clean_buffer.add(obs, action, reward, q.detach())  # ok
    with torch.no_grad():
        target = reward + 0.9 * target_net(obs).max()
    target_vals.append(target)  # ok
    loss = F.mse_loss(q[action], target)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(len(buffer.items), len(clean_buffer.sample(3)), len(target_vals))
