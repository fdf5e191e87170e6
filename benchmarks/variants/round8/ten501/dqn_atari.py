import argparse
import random
import time

import gymnasium as gym
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.tensorboard import SummaryWriter

from replay import PrioritizedReplay  # project-local buffer


class NatureCNN(nn.Module):
    def __init__(self, n_actions):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(4, 32, 8, stride=4), nn.ReLU(),
            nn.Conv2d(32, 64, 4, stride=2), nn.ReLU(),
            nn.Conv2d(64, 64, 3, stride=1), nn.ReLU(),
            nn.Flatten(),
        )
        self.head = nn.Sequential(nn.Linear(3136, 512), nn.ReLU(), nn.Linear(512, n_actions))

    def forward(self, x):
        return self.head(self.features(x / 255.0))


def linear_schedule(start, end, duration, t):
    return max(end, start + (end - start) * t / duration)


def make_env(env_id, seed):
    env = gym.make(env_id)
    env = gym.wrappers.AtariPreprocessing(env, frame_skip=1, terminal_on_life_loss=False)
    env = gym.wrappers.FrameStack(env, 4)
    env.action_space.seed(seed)
    return env


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--env-id", default="ALE/Breakout-v5")
    p.add_argument("--total-steps", type=int, default=10_000_000)
    p.add_argument("--buffer-size", type=int, default=1_000_000)
    p.add_argument("--learning-starts", type=int, default=80_000)
    p.add_argument("--train-freq", type=int, default=4)
    p.add_argument("--target-freq", type=int, default=1000)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()

    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    writer = SummaryWriter(f"runs/dqn_{args.seed}_{int(time.time())}")

    env = make_env(args.env_id, args.seed)
    q_network = NatureCNN(env.action_space.n).to(device)
    target_network = NatureCNN(env.action_space.n).to(device)
    target_network.load_state_dict(q_network.state_dict())
    optimizer = torch.optim.Adam(q_network.parameters(), lr=1e-4, eps=1.5e-4)
    rb = PrioritizedReplay(args.buffer_size, device=device)

    obs, _ = env.reset(seed=args.seed)
    episode_return, episode_len = 0.0, 0
    episode_q = []
    td_errors = []
    for global_step in range(args.total_steps):
        epsilon = linear_schedule(1.0, 0.01, 0.1 * args.total_steps, global_step)
        obs_t = torch.as_tensor(np.asarray(obs), device=device).unsqueeze(0).float()
        q_values = q_network(obs_t)
        if random.random() < epsilon:
            action = env.action_space.sample()
        else:
            action = q_values.argmax(dim=1).item()
        episode_q.append(q_values.max(dim=1).values)  # expect: TEN501

        next_obs, reward, terminated, truncated, info = env.step(action)
        rb.add(np.asarray(obs), action, reward, np.asarray(next_obs), terminated)
        episode_return += reward  # ok
        episode_len += 1
        obs = next_obs

        if terminated or truncated:
            writer.add_scalar("charts/episodic_return", episode_return, global_step)
            writer.add_scalar("charts/episodic_length", episode_len, global_step)
            writer.add_scalar("charts/avg_max_q", torch.cat(episode_q).mean().item(), global_step)
            episode_q = []
            episode_return, episode_len = 0.0, 0
            obs, _ = env.reset()

        if global_step > args.learning_starts and global_step % args.train_freq == 0:
            data = rb.sample(args.batch_size)
            with torch.no_grad():
                next_actions = q_network(data.next_observations).argmax(dim=1, keepdim=True)
                target_q = target_network(data.next_observations).gather(1, next_actions).squeeze(1)
                td_target = data.rewards.flatten() + args.gamma * target_q * (1 - data.dones.flatten())
            current_q = q_network(data.observations).gather(1, data.actions.long()).squeeze(1)
            td = td_target - current_q
            loss = (data.weights * F.smooth_l1_loss(current_q, td_target, reduction="none")).mean()

            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(q_network.parameters(), 10.0)
            optimizer.step()

            rb.update_priorities(data.indices, td.abs().detach().cpu().numpy() + 1e-6)
            td_errors.extend(td.abs().detach().cpu().tolist())  # ok
            if global_step % 1000 == 0:
                writer.add_scalar("losses/td_loss", loss.item(), global_step)
                writer.add_scalar("losses/td_abs_mean", float(np.mean(td_errors)), global_step)
                td_errors.clear()

        if global_step % args.target_freq == 0:
            target_network.load_state_dict(q_network.state_dict())

    torch.save(q_network.state_dict(), "dqn_breakout.pt")
    writer.close()


if __name__ == "__main__":
    main()
