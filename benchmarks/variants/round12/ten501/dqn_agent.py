import random
from collections import deque, namedtuple

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

Transition = namedtuple("Transition", ("state", "action", "reward", "next_state", "done"))


class QNetwork(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=128):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(),
                                 nn.Linear(hidden, hidden), nn.ReLU(),
                                 nn.Linear(hidden, n_actions))

    def forward(self, x):
        return self.net(x)


class DQNAgent:
    def __init__(self, obs_dim, n_actions, gamma=0.99, lr=1e-3, capacity=100_000, batch_size=64):
        self.n_actions = n_actions
        self.gamma = gamma
        self.batch_size = batch_size
        self.policy_net = QNetwork(obs_dim, n_actions)
        self.target_net = QNetwork(obs_dim, n_actions)
        self.target_net.load_state_dict(self.policy_net.state_dict())
        self.optimizer = torch.optim.AdamW(self.policy_net.parameters(), lr=lr, amsgrad=True)
        self.memory = deque(maxlen=capacity)
        self.loss_history = []
        self.recent_losses = deque(maxlen=100)
        self.mean_q = []
        self.q_trace = []
        self.td_errors = []

    def act(self, state, eps):
        if random.random() < eps:
            return random.randrange(self.n_actions)
        with torch.no_grad():
            q = self.policy_net(torch.as_tensor(state, dtype=torch.float32).unsqueeze(0))
        self.q_trace.append(q.max())  # ok
        return int(q.argmax(1))

    def remember(self, *args):
        self.memory.append(Transition(*args))  # ok

    def learn(self):
        if len(self.memory) < self.batch_size:
            return None
        batch = Transition(*zip(*random.sample(self.memory, self.batch_size)))
        states = torch.as_tensor(np.array(batch.state), dtype=torch.float32)
        actions = torch.as_tensor(batch.action).long()
        rewards = torch.as_tensor(batch.reward, dtype=torch.float32)
        next_states = torch.as_tensor(np.array(batch.next_state), dtype=torch.float32)
        dones = torch.as_tensor(batch.done, dtype=torch.float32)

        q = self.policy_net(states).gather(1, actions.unsqueeze(1)).squeeze(1)
        with torch.no_grad():
            next_q = self.target_net(next_states).max(1).values
            target = rewards + self.gamma * next_q * (1 - dones)
        loss = F.smooth_l1_loss(q, target)
        self.optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_value_(self.policy_net.parameters(), 100)
        self.optimizer.step()

        self.td_errors.extend((q - target).abs().detach().tolist())  # ok
        self.loss_history.append(loss)  # expect: TEN501
        self.mean_q.append(q.mean())  # expect: TEN501
        self.recent_losses.append(loss)  # either
        return loss.item()

    def sync_target(self):
        self.target_net.load_state_dict(self.policy_net.state_dict())


def run(env, agent, episodes=500, eps_start=1.0, eps_end=0.05, eps_decay=0.995, sync_every=10):
    eps = eps_start
    episode_rewards = []
    for ep in range(episodes):
        state, _ = env.reset()
        total_reward, done = 0.0, False
        while not done:
            action = agent.act(state, eps)
            next_state, reward, terminated, truncated, _ = env.step(action)
            done = terminated or truncated
            agent.remember(state, action, reward, next_state, float(terminated))
            agent.learn()
            state = next_state
            total_reward += reward  # ok
        episode_rewards.append(total_reward)  # ok
        eps = max(eps_end, eps * eps_decay)
        if ep % sync_every == 0:
            agent.sync_target()
    return episode_rewards
