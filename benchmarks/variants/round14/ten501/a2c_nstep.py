"""Synchronous n-step advantage actor-critic on a batch of toy bandit-chain envs."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical


class ChainEnvs:
    """A vector of chain MDPs: moving right eventually pays off."""

    def __init__(self, n_envs=8, length=6):
        self.n, self.length = n_envs, length
        self.state = torch.zeros(n_envs, dtype=torch.long)

    def observe(self):
        return F.one_hot(self.state, self.length).float()

    def step(self, actions):
        self.state = torch.where(actions == 1, self.state + 1, torch.zeros_like(self.state))
        done = self.state >= self.length - 1
        reward = done.float() * 1.0 + (actions == 0).float() * 0.01
        self.state = torch.where(done, torch.zeros_like(self.state), self.state)
        return self.observe(), reward, done


class Net(nn.Module):
    def __init__(self, n_obs, n_act):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(n_obs, 32), nn.ReLU())
        self.actor = nn.Linear(32, n_act)
        self.critic = nn.Linear(32, 1)

    def forward(self, x):
        h = self.trunk(x)
        return self.actor(h), self.critic(h).squeeze(-1)


def discounted_returns(rewards, dones, bootstrap, gamma=0.95):
    out, running = [], bootstrap
    for r, d in zip(reversed(rewards), reversed(dones)):
        running = r + gamma * running * (~d).float()
        out.append(running)  # ok
    return list(reversed(out))


def train(updates=6, n_steps=5):
    torch.manual_seed(0)
    envs = ChainEnvs()
    net = Net(envs.length, 2)
    opt = torch.optim.RMSprop(net.parameters(), lr=7e-3)
    obs = envs.observe()
    episode_rewards, update_log = [], []
    for update in range(updates):
        log_probs, values, entropies, rewards, dones = [], [], [], [], []
        for _ in range(n_steps):
            logits, value = net(obs)
            dist = Categorical(logits=logits)
            action = dist.sample()
            obs, reward, done = envs.step(action)
            log_probs.append(dist.log_prob(action))  # ok
            values.append(value)  # ok
            entropies.append(dist.entropy())  # ok
            rewards.append(reward)  # ok
            dones.append(done)  # ok
        with torch.no_grad():
            _, bootstrap = net(obs)
        returns = torch.stack(discounted_returns(rewards, dones, bootstrap))
        values_t = torch.stack(values)
        advantages = returns - values_t
        actor_loss = -(torch.stack(log_probs) * advantages.detach()).mean()
        critic_loss = advantages.pow(2).mean()
        loss = actor_loss + 0.5 * critic_loss - 0.01 * torch.stack(entropies).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        episode_rewards.append(torch.stack(rewards).sum(0).mean().item())  # ok
        update_log.append({"actor": actor_loss.item(), "critic": critic_loss.item()})  # ok
    print("reward per update:", [round(r, 3) for r in episode_rewards])
    print("last losses:", update_log[-1])


if __name__ == "__main__":
    train()
