"""Double DQN with a uniform replay buffer."""
import random
from collections import deque

import gymnasium as gym
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class QNetwork(nn.Module):
    def __init__(self, in_channels, n_actions):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(in_channels, 32, 8, stride=4), nn.ReLU(),
            nn.Conv2d(32, 64, 4, stride=2), nn.ReLU(),
            nn.Conv2d(64, 64, 3, stride=1), nn.ReLU(),
            nn.Flatten(), nn.Linear(3136, 512), nn.ReLU(),
            nn.Linear(512, n_actions),
        )

    def forward(self, x):
        return self.net(x / 255.0)


class ReplayBuffer:
    def __init__(self, capacity):
        self.buf = deque(maxlen=capacity)

    def push(self, s, a, r, s2, done):
        self.buf.append((s, a, r, s2, done))

    def sample(self, batch_size, device):
        batch = random.sample(self.buf, batch_size)
        s, a, r, s2, d = map(np.array, zip(*batch))
        return (
            torch.as_tensor(s, device=device, dtype=torch.float32),
            torch.as_tensor(a, device=device, dtype=torch.long),
            torch.as_tensor(r, device=device, dtype=torch.float32),
            torch.as_tensor(s2, device=device, dtype=torch.float32),
            torch.as_tensor(d, device=device, dtype=torch.float32),
        )

    def __len__(self):
        return len(self.buf)


class DQNAgent:
    def __init__(self, in_channels, n_actions, lr=1e-4, gamma=0.99, device="cuda"):
        self.n_actions = n_actions
        self.gamma = gamma
        self.device = device
        self.online = QNetwork(in_channels, n_actions).to(device)
        self.target = QNetwork(in_channels, n_actions).to(device)
        self.target.load_state_dict(self.online.state_dict())
        self.opt = torch.optim.Adam(self.online.parameters(), lr=lr)
        self.losses = []
        self.q_trace = []

    def act(self, state, eps):
        if random.random() < eps:
            return random.randrange(self.n_actions)
        with torch.no_grad():
            s = torch.as_tensor(state, device=self.device, dtype=torch.float32).unsqueeze(0)
            q = self.online(s)
            self.q_trace.append(q.max())  # ok
        return int(q.argmax(1))

    def learn(self, batch):
        states, actions, rewards, next_states, dones = batch
        q = self.online(states).gather(1, actions.unsqueeze(1)).squeeze(1)
        with torch.no_grad():
            next_actions = self.online(next_states).argmax(1, keepdim=True)
            next_q = self.target(next_states).gather(1, next_actions).squeeze(1)
            target = rewards + self.gamma * (1.0 - dones) * next_q
        loss = F.smooth_l1_loss(q, target)

        self.opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(self.online.parameters(), 10.0)
        self.opt.step()
        self.losses.append(loss)  # expect: TEN501
        return loss

    def sync_target(self):
        self.target.load_state_dict(self.online.state_dict())


def linear_schedule(start, end, duration, t):
    return max(end, start + (end - start) * t / duration)


def main(env_id="ALE/Pong-v5", total_steps=2_000_000, batch_size=32, learning_starts=50_000,
         train_freq=4, target_freq=10_000):
    env = gym.make(env_id)
    env = gym.wrappers.AtariPreprocessing(env, frame_skip=1)
    env = gym.wrappers.FrameStack(env, 4)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    agent = DQNAgent(4, env.action_space.n, device=device)
    buffer = ReplayBuffer(100_000)

    state, _ = env.reset(seed=0)
    episode_reward = 0.0
    returns = []
    for step in range(total_steps):
        eps = linear_schedule(1.0, 0.01, 0.1 * total_steps, step)
        action = agent.act(np.asarray(state), eps)
        next_state, reward, terminated, truncated, _ = env.step(action)
        buffer.push(np.asarray(state), action, reward, np.asarray(next_state), terminated)
        state = next_state
        episode_reward += reward
        if terminated or truncated:
            returns.append(episode_reward)
            episode_reward = 0.0
            state, _ = env.reset()

        if step > learning_starts and step % train_freq == 0:
            agent.learn(buffer.sample(batch_size, device))
        if step % target_freq == 0:
            agent.sync_target()
        if step % 10_000 == 0 and agent.losses:
            recent = torch.stack(agent.losses[-100:]).mean().item()
            print(f"step {step} eps {eps:.3f} loss {recent:.4f} "
                  f"avg return {np.mean(returns[-20:]) if returns else 0.0:.1f}")


if __name__ == "__main__":
    main()
