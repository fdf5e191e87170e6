"""Advantage actor-critic with n-step rollouts on a small chain-walk task."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ChainWalk:
    """States 0..n-1, start in the middle; +1 at the right end, -0.2 at the left end."""

    def __init__(self, n=7, max_steps=25):
        self.n, self.max_steps = n, max_steps
        self.reset()

    def reset(self):
        self.pos, self.t = self.n // 2, 0
        return self.obs()

    def obs(self):
        return F.one_hot(torch.tensor(self.pos), self.n).float()

    def step(self, action):
        self.pos += 1 if action == 1 else -1
        self.t += 1
        if self.pos >= self.n - 1:
            return self.reset(), 1.0, True
        if self.pos <= 0:
            return self.reset(), -0.2, True
        if self.t >= self.max_steps:
            return self.reset(), 0.0, True
        return self.obs(), -0.01, False


class ActorCritic(nn.Module):
    def __init__(self, n_obs, n_act, hidden=32):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_obs, hidden), nn.Tanh())
        self.pi = nn.Linear(hidden, n_act)
        self.v = nn.Linear(hidden, 1)

    def forward(self, obs):
        h = self.body(obs)
        return torch.distributions.Categorical(logits=self.pi(h)), self.v(h).squeeze(-1)


class A2CAgent:
    def __init__(self, env, gamma=0.95, n_steps=8, lr=7e-3, ent_coef=0.01):
        self.env = env
        self.net = ActorCritic(env.n, 2)
        self.opt = torch.optim.RMSprop(self.net.parameters(), lr=lr)
        self.gamma, self.n_steps, self.ent_coef = gamma, n_steps, ent_coef
        self.obs = env.reset()
        self.critic_losses = []
        self.actor_losses = []
        self.ep_return, self.finished_returns = 0.0, []

    def rollout(self):
        log_probs, values, rewards, masks, entropies = [], [], [], [], []
        for _ in range(self.n_steps):
            dist, value = self.net(self.obs)
            action = dist.sample()
            next_obs, reward, done = self.env.step(action.item())
            log_probs.append(dist.log_prob(action))  # ok
            values.append(value)  # ok
            entropies.append(dist.entropy())  # ok
            rewards.append(reward)
            masks.append(0.0 if done else 1.0)
            self.ep_return += reward
            if done:
                self.finished_returns.append(self.ep_return)  # ok
                self.ep_return = 0.0
            self.obs = next_obs
        with torch.no_grad():
            _, bootstrap = self.net(self.obs)
        return log_probs, values, rewards, masks, entropies, bootstrap

    def update(self):
        log_probs, values, rewards, masks, entropies, R = self.rollout()
        returns = []
        for r, m in zip(reversed(rewards), reversed(masks)):
            R = r + self.gamma * R * m
            returns.insert(0, R)
        returns = torch.stack(returns)
        values = torch.stack(values)
        advantages = returns - values
        actor_loss = -(torch.stack(log_probs) * advantages.detach()).mean()
        value_loss = advantages.pow(2).mean()
        entropy = torch.stack(entropies).mean()
        loss = actor_loss + 0.5 * value_loss - self.ent_coef * entropy

        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.critic_losses.append(value_loss)  # expect: TEN501
        self.actor_losses.append(actor_loss.item())  # ok
        return loss.item()


if __name__ == "__main__":
    agent = A2CAgent(ChainWalk())
    for update in range(40):
        agent.update()
        if update % 10 == 9:
            recent = agent.finished_returns[-5:]
            print(f"update {update + 1}: mean return {sum(recent) / max(len(recent), 1):.3f}")
