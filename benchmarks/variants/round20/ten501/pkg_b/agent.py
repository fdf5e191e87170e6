import torch
import torch.nn as nn
from torch.distributions import Categorical


class Agent(nn.Module):
    def __init__(self, obs_dim=4, n_act=3):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU())
        self.pi = nn.Linear(32, n_act)
        self.v = nn.Linear(32, 1)
        self.baseline = 0.0

    def act(self, obs):
        h = self.body(obs)
        dist = Categorical(logits=self.pi(h))
        a = dist.sample()
        return a.item(), dist.log_prob(a), self.v(h).squeeze(-1), dist.entropy()

    def learn(self, buf, optimizer, gamma=0.9):
        R, returns = 0.0, []
        for r in reversed(buf.rewards):
            R = r + gamma * R
            returns.insert(0, R)
        returns = torch.tensor(returns)
        values = torch.stack(buf.values)
        adv = returns - values
        actor = -(torch.stack(buf.log_probs) * adv.detach()).mean()
        critic = adv.pow(2).mean()
        ent = torch.stack(buf.entropies).mean()
        loss = actor + 0.5 * critic - 0.01 * ent
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        self.baseline = 0.9 * self.baseline + 0.1 * returns.mean()
        return {"loss": loss, "actor": actor, "critic": critic, "entropy": ent}
