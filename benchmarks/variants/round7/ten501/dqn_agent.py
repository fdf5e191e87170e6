import math
import random
from collections import deque, namedtuple

import gym
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

Transition = namedtuple("Transition", ("state", "action", "next_state", "reward", "done"))


class ReplayMemory:
    def __init__(self, capacity):
        self.memory = deque([], maxlen=capacity)

    def push(self, *args):
        self.memory.append(Transition(*args))

    def sample(self, batch_size):
        return random.sample(self.memory, batch_size)

    def __len__(self):
        return len(self.memory)


class QNetwork(nn.Module):
    def __init__(self, n_obs, n_actions, hidden=128):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(n_obs, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, n_actions),
        )

    def forward(self, x):
        return self.net(x)


class DQNAgent:
    def __init__(self, n_obs, n_actions, device, gamma=0.99, lr=1e-4, tau=0.005,
                 eps_start=0.9, eps_end=0.05, eps_decay=1000, batch_size=128):
        self.device = device
        self.n_actions = n_actions
        self.gamma = gamma
        self.tau = tau
        self.eps_start, self.eps_end, self.eps_decay = eps_start, eps_end, eps_decay
        self.batch_size = batch_size
        self.policy_net = QNetwork(n_obs, n_actions).to(device)
        self.target_net = QNetwork(n_obs, n_actions).to(device)
        self.target_net.load_state_dict(self.policy_net.state_dict())
        self.optimizer = optim.AdamW(self.policy_net.parameters(), lr=lr, amsgrad=True)
        self.memory = ReplayMemory(10000)
        self.steps_done = 0
        self.losses = []
        self.q_trace = []
        self.target_trace = []

    def act(self, state):
        eps = self.eps_end + (self.eps_start - self.eps_end) * math.exp(-1.0 * self.steps_done / self.eps_decay)
        self.steps_done += 1
        if random.random() > eps:
            with torch.no_grad():
                return self.policy_net(state).max(1).indices.view(1, 1)
        return torch.tensor([[random.randrange(self.n_actions)]], device=self.device, dtype=torch.long)

    def learn(self):
        if len(self.memory) < self.batch_size:
            return None
        batch = Transition(*zip(*self.memory.sample(self.batch_size)))
        states = torch.cat(batch.state)
        actions = torch.cat(batch.action)
        rewards = torch.cat(batch.reward)
        next_states = torch.cat(batch.next_state)
        dones = torch.cat(batch.done)

        with torch.no_grad():
            next_q = self.target_net(next_states).max(1).values
            target = rewards + self.gamma * next_q * (1.0 - dones)

        q = self.policy_net(states).gather(1, actions).squeeze(1)
        loss = F.smooth_l1_loss(q, target)

        self.optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_value_(self.policy_net.parameters(), 100)
        self.optimizer.step()

        self.losses.append(loss)  # expect: TEN501
        self.q_trace.append(q.mean().item())  # ok
        self.target_trace.append(target.mean())  # ok
        return loss

    @torch.no_grad()
    def soft_update(self):
        target_sd = self.target_net.state_dict()
        policy_sd = self.policy_net.state_dict()
        for key in policy_sd:
            target_sd[key] = policy_sd[key] * self.tau + target_sd[key] * (1 - self.tau)
        self.target_net.load_state_dict(target_sd)


def main(num_episodes=600):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    env = gym.make("CartPole-v1")
    state, _ = env.reset()
    agent = DQNAgent(len(state), env.action_space.n, device)
    episode_returns = []

    for i_episode in range(num_episodes):
        state, _ = env.reset()
        state = torch.tensor(state, dtype=torch.float32, device=device).unsqueeze(0)
        ep_ret = 0.0
        while True:
            action = agent.act(state)
            obs, reward, terminated, truncated, _ = env.step(action.item())
            ep_ret += reward
            next_state = torch.tensor(obs, dtype=torch.float32, device=device).unsqueeze(0)
            agent.memory.push(state, action, next_state,
                              torch.tensor([reward], device=device),
                              torch.tensor([float(terminated)], device=device))
            state = next_state
            agent.learn()
            agent.soft_update()
            if terminated or truncated:
                episode_returns.append(ep_ret)  # ok
                break
        if i_episode % 20 == 0 and agent.losses:
            print(f"ep {i_episode} return {np.mean(episode_returns[-20:]):.1f} "
                  f"loss {torch.stack(agent.losses[-200:]).mean().item():.4f} "
                  f"q {np.mean(agent.q_trace[-200:]):.2f}")


if __name__ == "__main__":
    main()
