"""DQN with replay memory and a frozen target network."""
import random
from collections import deque, namedtuple

import torch
import torch.nn as nn
import torch.nn.functional as F

Transition = namedtuple("Transition", ("state", "action", "next_state", "reward"))


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
    def __init__(self, n_obs=4, n_actions=2):
        super().__init__()
        self.layer1 = nn.Linear(n_obs, 32)
        self.layer2 = nn.Linear(32, n_actions)

    def forward(self, x):
        return self.layer2(F.relu(self.layer1(x)))


class Agent:
    def __init__(self):
        self.policy_net = DQN()
        self.target_net = DQN()
        self.target_net.load_state_dict(self.policy_net.state_dict())
        self.target_net.requires_grad_(False)
        self.optimizer = torch.optim.AdamW(self.policy_net.parameters(), lr=1e-3, amsgrad=True)
        self.memory = ReplayMemory(200)
        self.q_history = []
        self.target_q_log = []
        self.losses = []

    def select_action(self, state, eps):
        if random.random() > eps:
            with torch.no_grad():
                return self.policy_net(state).max(1).indices.view(1, 1)
        return torch.tensor([[random.randrange(2)]])

    def optimize_model(self, batch_size=16, gamma=0.99):
        if len(self.memory) < batch_size:
            return
        batch = Transition(*zip(*self.memory.sample(batch_size)))
        state_batch = torch.cat(batch.state)
        action_batch = torch.cat(batch.action)
        reward_batch = torch.cat(batch.reward)
        next_states = torch.cat(batch.next_state)
        q_values = self.policy_net(state_batch)
        state_action_values = q_values.gather(1, action_batch)
        next_state_values = self.target_net(next_states).max(1).values
        self.target_q_log.append(next_state_values.mean())  # ok
        expected = reward_batch + gamma * next_state_values
        loss = F.smooth_l1_loss(state_action_values, expected.unsqueeze(1))
        self.optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_value_(self.policy_net.parameters(), 100)
        self.optimizer.step()
        self.q_history.append(q_values.max(1)[0].mean())  # expect: TEN501
        self.losses.append(loss)  # expect: TEN501


if __name__ == "__main__":
    random.seed(0)
    torch.manual_seed(0)
    agent = Agent()
    episode_durations = []
    for i_episode in range(4):
        state = torch.randn(1, 4)
        for t in range(10):
            action = agent.select_action(state, eps=0.3)
            next_state = torch.randn(1, 4)
            reward = torch.tensor([1.0 if action.item() == int(state[0, 0] > 0) else 0.0])
            agent.memory.push(state, action, next_state, reward)  # ok
            state = next_state
            agent.optimize_model()
        episode_durations.append(t + 1)  # ok
    print(episode_durations, len(agent.losses))
