import copy
import random
from collections import defaultdict, deque

import gymnasium as gym
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

LOG_STD_MIN, LOG_STD_MAX = -5, 2


class ReplayBuffer:
    def __init__(self, capacity, device):
        self.storage = deque(maxlen=capacity)
        self.device = device

    def push(self, *transition):
        self.storage.append(transition)

    def sample(self, batch_size):
        batch = random.sample(self.storage, batch_size)
        obs, act, rew, next_obs, done = map(np.array, zip(*batch))
        as_t = lambda a: torch.as_tensor(a, dtype=torch.float32, device=self.device)
        return as_t(obs), as_t(act), as_t(rew).unsqueeze(-1), as_t(next_obs), as_t(done).unsqueeze(-1)

    def __len__(self):
        return len(self.storage)


class TwinQ(nn.Module):
    def __init__(self, obs_dim, act_dim, hidden=256):
        super().__init__()

        def q():
            return nn.Sequential(nn.Linear(obs_dim + act_dim, hidden), nn.ReLU(),
                                 nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))

        self.q1, self.q2 = q(), q()

    def forward(self, obs, act):
        x = torch.cat([obs, act], dim=-1)
        return self.q1(x), self.q2(x)


class SquashedGaussianActor(nn.Module):
    def __init__(self, obs_dim, act_dim, act_scale, hidden=256):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.mu = nn.Linear(hidden, act_dim)
        self.log_std = nn.Linear(hidden, act_dim)
        self.register_buffer("act_scale", torch.as_tensor(act_scale, dtype=torch.float32))

    def sample(self, obs):
        h = self.net(obs)
        mu = self.mu(h)
        log_std = self.log_std(h).clamp(LOG_STD_MIN, LOG_STD_MAX)
        std = log_std.exp()
        u = mu + std * torch.randn_like(mu)
        a = torch.tanh(u)
        logp = (-0.5 * ((u - mu) / std).pow(2) - log_std - 0.5 * np.log(2 * np.pi)).sum(-1, keepdim=True)
        logp = logp - torch.log(self.act_scale * (1 - a.pow(2)) + 1e-6).sum(-1, keepdim=True)
        return a * self.act_scale, logp


class SAC:
    def __init__(self, obs_dim, act_dim, act_scale, device, gamma=0.99, tau=0.005, lr=3e-4):
        self.actor = SquashedGaussianActor(obs_dim, act_dim, act_scale).to(device)
        self.critic = TwinQ(obs_dim, act_dim).to(device)
        self.critic_target = copy.deepcopy(self.critic).requires_grad_(False)
        self.log_alpha = torch.zeros(1, device=device, requires_grad=True)
        self.target_entropy = -float(act_dim)
        self.actor_opt = torch.optim.Adam(self.actor.parameters(), lr=lr)
        self.critic_opt = torch.optim.Adam(self.critic.parameters(), lr=lr)
        self.alpha_opt = torch.optim.Adam([self.log_alpha], lr=lr)
        self.gamma, self.tau = gamma, tau
        self.device = device
        self.logs = defaultdict(list)

    @property
    def alpha(self):
        return self.log_alpha.exp()

    def act(self, obs, deterministic=False):
        with torch.no_grad():
            obs_t = torch.as_tensor(obs, dtype=torch.float32, device=self.device).unsqueeze(0)
            if deterministic:
                a = torch.tanh(self.actor.mu(self.actor.net(obs_t))) * self.actor.act_scale
            else:
                a, _ = self.actor.sample(obs_t)
        return a.squeeze(0).cpu().numpy()

    def update(self, batch):
        obs, act, rew, next_obs, done = batch

        with torch.no_grad():
            next_a, next_logp = self.actor.sample(next_obs)
            q1_t, q2_t = self.critic_target(next_obs, next_a)
            target_q = rew + self.gamma * (1 - done) * (torch.min(q1_t, q2_t) - self.alpha * next_logp)

        q1, q2 = self.critic(obs, act)
        critic_loss = F.mse_loss(q1, target_q) + F.mse_loss(q2, target_q)
        self.critic_opt.zero_grad()
        critic_loss.backward()
        self.critic_opt.step()

        new_a, logp = self.actor.sample(obs)
        q_pi = torch.min(*self.critic(obs, new_a))
        actor_loss = (self.alpha.detach() * logp - q_pi).mean()
        self.actor_opt.zero_grad()
        actor_loss.backward()
        self.actor_opt.step()

        alpha_loss = -(self.log_alpha * (logp.detach() + self.target_entropy)).mean()
        self.alpha_opt.zero_grad()
        alpha_loss.backward()
        self.alpha_opt.step()

        with torch.no_grad():
            for p, tp in zip(self.critic.parameters(), self.critic_target.parameters()):
                tp.mul_(1 - self.tau).add_(self.tau * p)

        self.logs["critic_loss"].append(critic_loss)  # expect: TEN501
        self.logs["actor_loss"].append(actor_loss.item())  # ok
        self.logs["alpha"].append(self.log_alpha.exp())  # expect: TEN501
        self.logs["entropy"].append(-logp.detach().mean().cpu())  # ok
        self.logs["q_mean"].append(q1.mean().item())  # ok


def train(env_id="HalfCheetah-v4", total_steps=1_000_000, start_steps=10_000, batch_size=256, log_every=5000):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    env = gym.make(env_id)
    obs_dim = env.observation_space.shape[0]
    act_dim = env.action_space.shape[0]
    agent = SAC(obs_dim, act_dim, env.action_space.high, device)
    replay = ReplayBuffer(1_000_000, device)

    obs, _ = env.reset(seed=0)
    ep_ret, ep_returns = 0.0, []
    for step in range(total_steps):
        action = env.action_space.sample() if step < start_steps else agent.act(obs)
        next_obs, reward, term, trunc, _ = env.step(action)
        replay.push(obs, action, reward, next_obs, float(term))
        ep_ret += reward
        obs = next_obs
        if term or trunc:
            ep_returns.append(ep_ret)
            ep_ret = 0.0
            obs, _ = env.reset()

        if step >= start_steps:
            agent.update(replay.sample(batch_size))

        if step % log_every == 0 and agent.logs["critic_loss"]:
            recent = {k: np.mean([float(x) for x in v[-100:]]) for k, v in agent.logs.items()}
            print(step, np.mean(ep_returns[-10:]) if ep_returns else 0.0, recent)


if __name__ == "__main__":
    train()
