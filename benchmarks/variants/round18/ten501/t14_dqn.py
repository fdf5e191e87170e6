"""DQN with a replay buffer, a target network and some diagnostics."""
import random
from collections import deque

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
rng = random.Random(0)

q_net = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))
target_net = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))
target_net.load_state_dict(q_net.state_dict())
opt = torch.optim.Adam(q_net.parameters(), lr=1e-3)
gamma, eps, batch_size = 0.99, 0.2, 4

replay = deque(maxlen=100)
q_trace = []
q_trace_values = []
td_errors = deque()
recent_losses = deque(maxlen=3)
target_means = []

state = torch.randn(4)
for step in range(6):
    q_values = q_net(state)
    action = int(q_values.argmax()) if rng.random() > eps else rng.randrange(2)
    reward = 1.0 if (action == 1) == bool(state[0] > 0) else 0.0
    next_state = torch.randn(4)
    done = step % 3 == 2
    replay.append((state, action, reward, next_state, done))  # ok
    q_trace.append(q_values.max())  # expect: TEN501
    q_trace_values.append(q_values.max().item())  # ok
    state = torch.randn(4) if done else next_state

    if len(replay) >= batch_size:
        batch = rng.sample(list(replay), batch_size)
        states = torch.stack([b[0] for b in batch])
        actions = torch.tensor([b[1] for b in batch])
        rewards = torch.tensor([b[2] for b in batch])
        next_states = torch.stack([b[3] for b in batch])
        dones = torch.tensor([float(b[4]) for b in batch])
        q_sa = q_net(states).gather(1, actions.unsqueeze(1)).squeeze(1)
        with torch.no_grad():
            target_q = rewards + gamma * target_net(next_states).max(1).values * (1 - dones)
        td = q_sa - target_q
        loss = F.smooth_l1_loss(q_sa, target_q)
        opt.zero_grad()
        loss.backward()
        opt.step()
        td_errors.append(td)  # expect: TEN501
        recent_losses.append(loss)  # either
        target_means.append(target_q.mean())  # ok
    if step % 3 == 0:
        target_net.load_state_dict(q_net.state_dict())

print(f"replay={len(replay)} q={q_trace_values[-1]:.3f} td batches={len(td_errors)} "
      f"recent={[round(l.item(), 4) for l in recent_losses]}")
