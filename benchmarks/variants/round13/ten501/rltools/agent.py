"""Synchronous A2C on vectorised toy bandit-walk environments (python -m rltools.agent)."""
import torch
import torch.nn as nn
from torch.distributions import Categorical

from .storage import EpisodeStats, RolloutStorage


class VecWalk:
    def __init__(self, n_envs=4, size=4):
        self.n, self.size = n_envs, size
        self.pos = torch.zeros(n_envs)

    def obs(self):
        return torch.stack([self.pos / self.size, torch.ones(self.n)], 1)

    def step(self, actions):
        self.pos = (self.pos + (actions.float() * 2 - 1)).clamp(0, self.size)
        done = self.pos >= self.size
        reward = done.float() - 0.01
        self.pos = torch.where(done, torch.zeros_like(self.pos), self.pos)
        return self.obs(), reward, done.float()


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(2, 32), nn.Tanh())
        self.pi, self.v = nn.Linear(32, 2), nn.Linear(32, 1)

    def forward(self, x):
        h = self.body(x)
        return self.pi(h), self.v(h).squeeze(-1)


class A2C:
    def __init__(self, gamma=0.95, n_steps=5):
        self.net = Net()
        self.opt = torch.optim.RMSprop(self.net.parameters(), lr=7e-4)
        self.gamma, self.n_steps = gamma, n_steps
        self.storage, self.stats = RolloutStorage(), EpisodeStats()
        self.adv_history, self.ret_history = [], []
        self.n_updates = 0

    def rollout(self, env, obs):
        for _ in range(self.n_steps):
            logits, value = self.net(obs)
            dist = Categorical(logits=logits)
            action = dist.sample()
            obs, reward, done = env.step(action)
            self.storage.insert(dist.log_prob(action), value, reward, dist.entropy(), 1.0 - done)  # ok
        return obs

    def update(self, next_obs):
        with torch.no_grad():
            _, next_value = self.net(next_obs)
        returns = self.storage.compute_returns(next_value, self.gamma)
        values = torch.stack(self.storage.values)
        adv = returns - values
        actor = -(torch.stack(self.storage.log_probs) * adv.detach()).mean()
        critic = adv.pow(2).mean()
        entropy = torch.stack(self.storage.entropies).mean()
        loss = actor + 0.5 * critic - 0.01 * entropy
        self.opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(self.net.parameters(), 0.5)
        self.opt.step()
        self.n_updates += 1
        self.stats.add(update=self.n_updates, value_loss=critic, actor_loss=actor.item())  # expect: TEN501
        self.stats.add_value_loss(critic.item())  # ok
        self.adv_history.append(adv.mean())  # expect: TEN501
        self.ret_history.append(returns.mean())  # ok
        self.storage.clear()


def main(updates=4):
    torch.manual_seed(0)
    env, agent = VecWalk(), A2C()
    obs = env.obs()
    for _ in range(updates):
        obs = agent.rollout(env, obs)
        agent.update(obs)
    print(agent.n_updates, agent.stats.value_loss_sum, float(agent.ret_history[-1]))


if __name__ == "__main__":
    main()
