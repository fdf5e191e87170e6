"""A2C-style updates whose statistics go through closures and functools.partial."""
import functools

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

torch.manual_seed(0)
torch.set_num_threads(1)


def make_logger():
    values = []

    def log(value):
        values.append(value)
        return len(values)

    log.values = values
    return log


def record(store, key, value):
    store.setdefault(key, []).append(value)


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.shared = nn.Linear(4, 16)
        self.actor = nn.Linear(16, 2)
        self.critic = nn.Linear(16, 1)

    def forward(self, obs):
        h = torch.relu(self.shared(obs))
        return self.actor(h), self.critic(h).squeeze(-1)


model = ActorCritic()
opt = torch.optim.RMSprop(model.parameters(), lr=7e-4)

log_actor = make_logger()
log_critic = make_logger()
log_steps = make_logger()
entropy_store, value_store = {}, {}
rec_entropy = functools.partial(record, entropy_store, "entropy")
rec_value = functools.partial(record, value_store, "value_loss")

for step in range(4):
    obs = torch.randn(8, 4)
    logits, values = model(obs)
    dist = Categorical(logits=logits)
    actions = dist.sample()
    rewards = (actions == (obs[:, 0] > 0).long()).float()
    advantages = rewards - values.detach()
    actor_loss = -(dist.log_prob(actions) * advantages).mean()
    value_loss = F.mse_loss(values, rewards)
    entropy = dist.entropy().mean()
    loss = actor_loss + 0.5 * value_loss - 0.01 * entropy
    opt.zero_grad()
    loss.backward()
    opt.step()

    log_actor(actor_loss)  # expect: TEN501
    log_critic(value_loss.item())  # ok
    log_steps(step)  # ok
    rec_entropy(entropy)  # expect: TEN501
    rec_value(value_loss.detach())  # ok

print("critic:", [round(v, 4) for v in log_critic.values], "entropies kept:", len(entropy_store["entropy"]))
