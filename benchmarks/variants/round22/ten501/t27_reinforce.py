"""REINFORCE with a learned baseline on a toy chain environment."""
import torch
from torch import nn
from torch.distributions import Categorical


class Chain:
    """Walk left/right on 0..5; reward 1 on reaching 5."""

    def reset(self):
        self.pos = 2
        return self._obs()

    def _obs(self):
        return torch.nn.functional.one_hot(torch.tensor(self.pos), 6).float()

    def step(self, action):
        self.pos = max(0, min(5, self.pos + (1 if action == 1 else -1)))
        done = self.pos in (0, 5)
        return self._obs(), float(self.pos == 5), done


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(6, 16)
        self.pi = nn.Linear(16, 2)
        self.v = nn.Linear(16, 1)

    def forward(self, obs):
        h = torch.relu(self.body(obs))
        return Categorical(logits=self.pi(h)), self.v(h).squeeze(-1)


def run(episodes=6, gamma=0.95):
    torch.manual_seed(0)
    env, ac = Chain(), ActorCritic()
    opt = torch.optim.Adam(ac.parameters(), lr=1e-2)
    episode_losses, episode_returns = [], []
    entropy_total = 0.0
    baseline = torch.zeros(())
    for ep in range(episodes):
        obs = env.reset()
        log_probs, values, rewards = [], [], []
        for t in range(12):
            dist, value = ac(obs)
            action = dist.sample()
            log_probs.append(dist.log_prob(action))  # ok
            values.append(value)  # ok
            entropy_total += dist.entropy()  # expect: TEN501
            obs, r, done = env.step(action.item())
            rewards.append(r)  # ok
            if done:
                break
        returns, g = [], 0.0
        for r in reversed(rewards):
            g = r + gamma * g
            returns.insert(0, g)  # ok
        returns = torch.tensor(returns)
        values = torch.stack(values)
        adv = returns - values.detach()
        policy_loss = -(torch.stack(log_probs) * adv).sum() + nn.functional.mse_loss(values, returns)
        opt.zero_grad()
        policy_loss.backward()
        opt.step()
        episode_losses.append(policy_loss)  # expect: TEN501
        episode_returns.append(sum(rewards))  # ok
        baseline = 0.9 * baseline + 0.1 * returns.mean()  # ok
    return episode_losses, episode_returns, entropy_total, baseline


if __name__ == "__main__":
    losses, rets, ent, base = run()
    print(len(losses), rets, round(float(ent.detach()), 3), round(base.item(), 4))
