import torch
import torch.nn as nn
from torch.distributions import Categorical


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(4, 16)
        self.pi = nn.Linear(16, 2)
        self.v = nn.Linear(16, 1)

    def forward(self, s):
        h = torch.tanh(self.body(s))
        return Categorical(logits=self.pi(h)), self.v(h).squeeze(-1)


def learn(model, opt, buffer, gamma=0.9):
    R, returns = 0.0, []
    for r in reversed(buffer.rewards):
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    values = torch.stack(buffer.values)
    log_probs = torch.stack(buffer.log_probs)
    adv = returns - values
    actor_loss = -(log_probs * adv.detach()).mean()
    critic_loss = adv.pow(2).mean()
    opt.zero_grad()
    (actor_loss + critic_loss).backward()
    opt.step()
    return actor_loss, {"critic": critic_loss, "adv_mean": adv.mean()}
