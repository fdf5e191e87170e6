"""DQN (pytorch tutorial layout) with replay memory and a learned curiosity bonus."""
import random
from collections import deque, namedtuple

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(0)
torch.set_num_threads(1)
random.seed(0)

Transition = namedtuple("Transition", ("state", "action", "next_state", "reward"))


class ReplayMemory:
    def __init__(self, capacity):
        self.memory = deque([], maxlen=capacity)

    def push(self, *args):
        """Save a transition"""
        self.memory.append(Transition(*args))

    def sample(self, batch_size):
        return random.sample(self.memory, batch_size)

    def __len__(self):
        return len(self.memory)


class GridEnv:
    """5x5 grid, start top-left, goal bottom-right; state is a one-hot of the cell."""

    def reset(self):
        self.r, self.c, self.t = 0, 0, 0
        return self._obs()

    def _obs(self):
        s = torch.zeros(1, 25)
        s[0, self.r * 5 + self.c] = 1.0
        return s

    def step(self, a):
        dr, dc = [(-1, 0), (1, 0), (0, -1), (0, 1)][a]
        self.r = min(4, max(0, self.r + dr))
        self.c = min(4, max(0, self.c + dc))
        self.t += 1
        done = (self.r, self.c) == (4, 4)
        return (None if done else self._obs()), (1.0 if done else 0.0), done or self.t >= 40


class DQN(nn.Module):
    def __init__(self, n_observations, n_actions):
        super().__init__()
        self.layer1 = nn.Linear(n_observations, 64)
        self.layer2 = nn.Linear(64, n_actions)

    def forward(self, x):
        return self.layer2(F.relu(self.layer1(x)))


class ForwardModel(nn.Module):
    """Predicts the next state; its error is used as an intrinsic reward."""

    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(25 + 4, 32), nn.ReLU(), nn.Linear(32, 25))

    def forward(self, s, a):
        return self.net(torch.cat([s, F.one_hot(a.view(-1), 4).float()], dim=1))


BATCH_SIZE, GAMMA, EPS, TAU, BETA = 32, 0.95, 0.2, 0.01, 0.1
env = GridEnv()
policy_net = DQN(25, 4)
target_net = DQN(25, 4)
target_net.load_state_dict(policy_net.state_dict())
fwd_model = ForwardModel()
optimizer = optim.AdamW(policy_net.parameters(), lr=1e-3, amsgrad=True)
fwd_opt = optim.Adam(fwd_model.parameters(), lr=1e-3)
memory = ReplayMemory(2000)
curious_memory = ReplayMemory(2000)
losses, q_history, episode_durations = [], [], []


def select_action(state):
    if random.random() > EPS:
        with torch.no_grad():
            return policy_net(state).max(1).indices.view(1, 1)
    return torch.tensor([[random.randrange(4)]], dtype=torch.long)


def optimize_model(mem):
    if len(mem) < BATCH_SIZE:
        return None
    batch = Transition(*zip(*mem.sample(BATCH_SIZE)))
    non_final_mask = torch.tensor(tuple(s is not None for s in batch.next_state), dtype=torch.bool)
    non_final_next_states = torch.cat([s for s in batch.next_state if s is not None])
    state_batch = torch.cat(batch.state)
    action_batch = torch.cat(batch.action)
    reward_batch = torch.cat(batch.reward)
    state_action_values = policy_net(state_batch).gather(1, action_batch)
    next_state_values = torch.zeros(BATCH_SIZE)
    with torch.no_grad():
        next_state_values[non_final_mask] = target_net(non_final_next_states).max(1).values
    expected_state_action_values = ((next_state_values * GAMMA) + reward_batch).detach()
    loss = nn.SmoothL1Loss()(state_action_values, expected_state_action_values.unsqueeze(1))
    optimizer.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_value_(policy_net.parameters(), 100)
    optimizer.step()
    return loss


for i_episode in range(12):
    state = env.reset()
    for t in range(40):
        action = select_action(state)
        next_state, ext_reward, done = env.step(action.item())
        reward = torch.tensor([ext_reward])

        target_next = next_state if next_state is not None else torch.zeros(1, 25)
        pred_next = fwd_model(state, action)
        fwd_loss = F.mse_loss(pred_next, target_next)
        fwd_opt.zero_grad()
        fwd_loss.backward()
        fwd_opt.step()
        intrinsic = BETA * (pred_next - target_next).pow(2).mean(dim=1)
        curious_reward = reward + intrinsic

        memory.push(state, action, next_state, reward)  # ok
        curious_memory.push(state, action, next_state, curious_reward)  # expect: TEN501
        state = next_state

        loss = optimize_model(memory if i_episode % 2 == 0 else curious_memory)
        if loss is not None:
            losses.append(loss)  # expect: TEN501
            q_history.append(policy_net(torch.zeros(1, 25) if state is None else state).max().item())  # ok

        target_net_state_dict = target_net.state_dict()
        policy_net_state_dict = policy_net.state_dict()
        for key in policy_net_state_dict:
            target_net_state_dict[key] = policy_net_state_dict[key] * TAU + target_net_state_dict[key] * (1 - TAU)  # ok
        target_net.load_state_dict(target_net_state_dict)
        if done:
            episode_durations.append(t + 1)
            break

print("episode durations:", episode_durations)
print("mean TD loss:", torch.stack(losses).mean().item(), "mean max-Q:", sum(q_history) / len(q_history))
print("mean curious reward:", torch.cat([tr.reward for tr in curious_memory.memory]).mean().item())
