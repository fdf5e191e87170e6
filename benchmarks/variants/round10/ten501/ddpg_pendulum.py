"""DDPG with Ornstein-Uhlenbeck exploration on Pendulum-v1."""
import copy
import random
from collections import deque

import gym
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class OUNoise:
    def __init__(self, size, mu=0.0, theta=0.15, sigma=0.2):
        self.mu = mu * np.ones(size)
        self.theta = theta
        self.sigma = sigma
        self.reset()

    def reset(self):
        self.state = copy.copy(self.mu)

    def sample(self):
        dx = self.theta * (self.mu - self.state) + self.sigma * np.random.randn(len(self.state))
        self.state = self.state + dx
        return self.state


class Replay:
    def __init__(self, capacity=100_000):
        self.buf = deque(maxlen=capacity)

    def push(self, *transition):
        self.buf.append(transition)

    def sample(self, n):
        batch = random.sample(self.buf, n)
        s, a, r, s2, d = map(np.array, zip(*batch))
        to = lambda x: torch.as_tensor(x, dtype=torch.float32)
        return to(s), to(a), to(r).unsqueeze(1), to(s2), to(d).unsqueeze(1)

    def __len__(self):
        return len(self.buf)


def mlp(inp, out, hidden=256, out_act=None):
    layers = [nn.Linear(inp, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, out)]
    if out_act is not None:
        layers.append(out_act)
    return nn.Sequential(*layers)


def soft_update(target, source, tau):
    with torch.no_grad():
        for t, s in zip(target.parameters(), source.parameters()):
            t.mul_(1 - tau).add_(tau * s)


def train(episodes=300, batch_size=128, gamma=0.99, tau=0.005, warmup=1000):
    env = gym.make("Pendulum-v1")
    obs_dim = env.observation_space.shape[0]
    act_dim = env.action_space.shape[0]
    max_a = float(env.action_space.high[0])

    actor = mlp(obs_dim, act_dim, out_act=nn.Tanh())
    critic = mlp(obs_dim + act_dim, 1)
    actor_t, critic_t = copy.deepcopy(actor), copy.deepcopy(critic)
    a_opt = torch.optim.Adam(actor.parameters(), lr=1e-4)
    c_opt = torch.optim.Adam(critic.parameters(), lr=1e-3)
    noise = OUNoise(act_dim)
    replay = Replay()

    q_trace, target_trace, actions_taken = [], [], []
    total_steps = 0
    for ep in range(episodes):
        s = env.reset()
        noise.reset()
        ep_ret = 0.0
        done = False
        while not done:
            with torch.no_grad():
                action = actor(torch.as_tensor(s, dtype=torch.float32)) * max_a
            actions_taken.append(action)  # ok
            a = np.clip(action.numpy() + noise.sample(), -max_a, max_a)
            s2, r, done, _ = env.step(a)
            replay.push(s, a, r, s2, float(done))
            s = s2
            ep_ret += r
            total_steps += 1

            if len(replay) < max(batch_size, warmup):
                continue
            bs, ba, br, bs2, bd = replay.sample(batch_size)
            with torch.no_grad():
                q_target = br + gamma * (1 - bd) * critic_t(torch.cat([bs2, actor_t(bs2) * max_a], 1))
            q = critic(torch.cat([bs, ba], 1))
            critic_loss = F.mse_loss(q, q_target)
            c_opt.zero_grad()
            critic_loss.backward()
            c_opt.step()

            actor_loss = -critic(torch.cat([bs, actor(bs) * max_a], 1)).mean()
            a_opt.zero_grad()
            actor_loss.backward()
            a_opt.step()

            soft_update(actor_t, actor, tau)
            soft_update(critic_t, critic, tau)

            q_trace.extend(q.squeeze(-1))  # expect: TEN501
            target_trace.extend(q_target.squeeze(-1).tolist())  # ok

        print(f"episode {ep} return {ep_ret:.1f} mean Q {np.mean([float(v) for v in q_trace[-5000:]]) if q_trace else 0:.2f}"
              f" mean target {np.mean(target_trace[-5000:]) if target_trace else 0:.2f}")
    return actor, torch.stack(actions_taken)
