"""DQN with a step-driven while loop, epsilon-greedy exploration and a
prioritised-replay style record of TD errors."""
import math
import random
from collections import deque, namedtuple

import torch
import torch.nn as nn
import torch.nn.functional as F

Transition = namedtuple("Transition", ("state", "action", "next_state", "reward", "done"))

BATCH_SIZE = 16
GAMMA = 0.99
EPS_START, EPS_END, EPS_DECAY = 0.9, 0.05, 200
TAU = 0.01
LR = 1e-3


class ReplayMemory:
    def __init__(self, capacity):
        self.memory = deque([], maxlen=capacity)

    def push(self, *args):
        self.memory.append(Transition(*args))

    def sample(self, batch_size):
        return random.sample(self.memory, batch_size)

    def __len__(self):
        return len(self.memory)


class DQN(nn.Module):
    def __init__(self, n_observations, n_actions):
        super().__init__()
        self.layer1 = nn.Linear(n_observations, 64)
        self.layer2 = nn.Linear(64, 64)
        self.layer3 = nn.Linear(64, n_actions)

    def forward(self, x):
        x = F.relu(self.layer1(x))
        x = F.relu(self.layer2(x))
        return self.layer3(x)


class GridEnv:
    def __init__(self, size=5):
        self.size = size
        self.pos = 0

    def reset(self):
        self.pos = random.randrange(self.size)
        return self._obs()

    def _obs(self):
        return F.one_hot(torch.tensor(self.pos), self.size).float()

    def step(self, action):
        self.pos = max(0, min(self.size - 1, self.pos + (1 if action == 1 else -1)))
        done = self.pos == self.size - 1
        return self._obs(), (1.0 if done else -0.05), done


def main(max_steps=400):
    random.seed(0)
    torch.manual_seed(0)
    env = GridEnv()
    n_obs, n_actions = env.size, 2
    policy_net = DQN(n_obs, n_actions)
    target_net = DQN(n_obs, n_actions)
    target_net.load_state_dict(policy_net.state_dict())
    optimizer = torch.optim.AdamW(policy_net.parameters(), lr=LR, amsgrad=True)
    memory = ReplayMemory(1000)

    td_history = torch.empty(0)
    target_log = torch.empty(0)
    episode_max_q = []
    episode_returns = []

    state = env.reset()
    ep_return = 0.0
    steps_done = 0
    while steps_done < max_steps:
        eps_threshold = EPS_END + (EPS_START - EPS_END) * math.exp(-1.0 * steps_done / EPS_DECAY)
        with torch.no_grad():
            q_values = policy_net(state.unsqueeze(0))
        episode_max_q.append(q_values.max())  # ok
        if random.random() > eps_threshold:
            action = int(q_values.argmax(1))
        else:
            action = random.randrange(n_actions)
        next_state, reward, done = env.step(action)
        ep_return += reward
        memory.push(state, action, next_state, reward, float(done))
        state = env.reset() if done else next_state
        if done:
            episode_returns.append(ep_return)
            ep_return = 0.0
        steps_done += 1

        if len(memory) < BATCH_SIZE:
            continue
        batch = Transition(*zip(*memory.sample(BATCH_SIZE)))
        state_batch = torch.stack(batch.state)
        action_batch = torch.tensor(batch.action).unsqueeze(1)
        reward_batch = torch.tensor(batch.reward)
        next_batch = torch.stack(batch.next_state)
        done_batch = torch.tensor(batch.done)

        state_action_values = policy_net(state_batch).gather(1, action_batch).squeeze(1)
        with torch.no_grad():
            next_state_values = target_net(next_batch).max(1).values
            expected = reward_batch + GAMMA * (1 - done_batch) * next_state_values
        td = expected - state_action_values
        loss = F.smooth_l1_loss(state_action_values, expected)

        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_value_(policy_net.parameters(), 100)
        optimizer.step()

        td_history = torch.cat((td_history, td.abs()))  # expect: TEN501
        target_log = torch.cat((target_log, expected))  # ok

        target_sd = target_net.state_dict()
        policy_sd = policy_net.state_dict()
        for key in policy_sd:
            target_sd[key] = policy_sd[key] * TAU + target_sd[key] * (1 - TAU)
        target_net.load_state_dict(target_sd)

    print(f"episodes={len(episode_returns)} mean_return={sum(episode_returns) / max(len(episode_returns), 1):.3f} "
          f"mean|td|={td_history.mean().item():.4f} mean_target={target_log.mean().item():.4f} "
          f"last_maxq={episode_max_q[-1].item():.3f}")


if __name__ == "__main__":
    main()
