import copy
from collections import defaultdict

import gymnasium as gym
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class ReplayBuffer:
    def __init__(self, state_dim, action_dim, max_size=int(1e6)):
        self.max_size, self.ptr, self.size = max_size, 0, 0
        self.state = np.zeros((max_size, state_dim), dtype=np.float32)
        self.action = np.zeros((max_size, action_dim), dtype=np.float32)
        self.next_state = np.zeros((max_size, state_dim), dtype=np.float32)
        self.reward = np.zeros((max_size, 1), dtype=np.float32)
        self.not_done = np.zeros((max_size, 1), dtype=np.float32)

    def add(self, s, a, s2, r, done):
        self.state[self.ptr], self.action[self.ptr], self.next_state[self.ptr] = s, a, s2
        self.reward[self.ptr], self.not_done[self.ptr] = r, 1.0 - done
        self.ptr = (self.ptr + 1) % self.max_size
        self.size = min(self.size + 1, self.max_size)

    def sample(self, batch_size):
        ind = np.random.randint(0, self.size, size=batch_size)
        return tuple(torch.as_tensor(arr[ind], device=device)
                     for arr in (self.state, self.action, self.next_state, self.reward, self.not_done))


class Actor(nn.Module):
    def __init__(self, state_dim, action_dim, max_action):
        super().__init__()
        self.l1 = nn.Linear(state_dim, 256)
        self.l2 = nn.Linear(256, 256)
        self.l3 = nn.Linear(256, action_dim)
        self.max_action = max_action

    def forward(self, state):
        a = F.relu(self.l1(state))
        a = F.relu(self.l2(a))
        return self.max_action * torch.tanh(self.l3(a))


class Critic(nn.Module):
    def __init__(self, state_dim, action_dim):
        super().__init__()
        self.q1 = nn.Sequential(nn.Linear(state_dim + action_dim, 256), nn.ReLU(),
                                nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 1))
        self.q2 = nn.Sequential(nn.Linear(state_dim + action_dim, 256), nn.ReLU(),
                                nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 1))

    def forward(self, state, action):
        sa = torch.cat([state, action], 1)
        return self.q1(sa), self.q2(sa)

    def Q1(self, state, action):
        return self.q1(torch.cat([state, action], 1))


class TD3:
    def __init__(self, state_dim, action_dim, max_action, discount=0.99, tau=0.005,
                 policy_noise=0.2, noise_clip=0.5, policy_freq=2):
        self.actor = Actor(state_dim, action_dim, max_action).to(device)
        self.actor_target = copy.deepcopy(self.actor)
        self.actor_optimizer = torch.optim.Adam(self.actor.parameters(), lr=3e-4)
        self.critic = Critic(state_dim, action_dim).to(device)
        self.critic_target = copy.deepcopy(self.critic)
        self.critic_optimizer = torch.optim.Adam(self.critic.parameters(), lr=3e-4)
        self.max_action = max_action
        self.discount, self.tau = discount, tau
        self.policy_noise, self.noise_clip, self.policy_freq = policy_noise, noise_clip, policy_freq
        self.total_it = 0
        self.stats = defaultdict(list)

    def select_action(self, state):
        state = torch.as_tensor(state.reshape(1, -1), dtype=torch.float32, device=device)
        with torch.no_grad():
            return self.actor(state).cpu().numpy().flatten()

    def train(self, replay_buffer, batch_size=256):
        self.total_it += 1
        state, action, next_state, reward, not_done = replay_buffer.sample(batch_size)

        with torch.no_grad():
            noise = (torch.randn_like(action) * self.policy_noise).clamp(-self.noise_clip, self.noise_clip)
            next_action = (self.actor_target(next_state) + noise).clamp(-self.max_action, self.max_action)
            target_q1, target_q2 = self.critic_target(next_state, next_action)
            target_q = reward + not_done * self.discount * torch.min(target_q1, target_q2)

        current_q1, current_q2 = self.critic(state, action)
        critic_loss = F.mse_loss(current_q1, target_q) + F.mse_loss(current_q2, target_q)
        self.critic_optimizer.zero_grad()
        critic_loss.backward()
        self.critic_optimizer.step()
        self.stats["critic_loss"].append(critic_loss.item())  # ok
        self.stats["target_q"].append(target_q.mean())  # ok

        if self.total_it % self.policy_freq == 0:
            actor_loss = -self.critic.Q1(state, self.actor(state)).mean()
            self.actor_optimizer.zero_grad()
            actor_loss.backward()
            self.actor_optimizer.step()
            self.stats["actor_loss"].append(actor_loss)  # expect: TEN501
            self.stats["q1"].append(current_q1.mean())  # expect: TEN501

            with torch.no_grad():
                for param, target_param in zip(self.critic.parameters(), self.critic_target.parameters()):
                    target_param.mul_(1 - self.tau).add_(self.tau * param)  # ok
                for param, target_param in zip(self.actor.parameters(), self.actor_target.parameters()):
                    target_param.mul_(1 - self.tau).add_(self.tau * param)  # ok


def main(env_name="HalfCheetah-v4", seed=0, max_timesteps=int(1e6), start_timesteps=25000, expl_noise=0.1):
    env = gym.make(env_name)
    torch.manual_seed(seed)
    np.random.seed(seed)
    state_dim = env.observation_space.shape[0]
    action_dim = env.action_space.shape[0]
    max_action = float(env.action_space.high[0])
    policy = TD3(state_dim, action_dim, max_action)
    replay_buffer = ReplayBuffer(state_dim, action_dim)

    state, _ = env.reset(seed=seed)
    episode_reward, episode_num = 0.0, 0
    returns = []
    for t in range(max_timesteps):
        if t < start_timesteps:
            action = env.action_space.sample()
        else:
            action = (policy.select_action(np.array(state))
                      + np.random.normal(0, max_action * expl_noise, size=action_dim)).clip(-max_action, max_action)
        next_state, reward, terminated, truncated, _ = env.step(action)
        replay_buffer.add(state, action, next_state, reward, float(terminated))
        state = next_state
        episode_reward += reward
        if t >= start_timesteps:
            policy.train(replay_buffer)
        if terminated or truncated:
            returns.append(episode_reward)  # ok
            if episode_num % 10 == 0 and policy.stats["actor_loss"]:
                print(f"T {t + 1} ep {episode_num} R {episode_reward:.1f} "
                      f"critic {np.mean(policy.stats['critic_loss'][-1000:]):.3f} "
                      f"actor {torch.stack(policy.stats['actor_loss'][-500:]).mean().item():.3f}")
            state, _ = env.reset()
            episode_reward, episode_num = 0.0, episode_num + 1


if __name__ == "__main__":
    main()
