"""n-step A2C agent with an entropy bonus and some lifetime statistics."""
import torch
import torch.nn as nn
from torch.distributions import Categorical

torch.manual_seed(0)
torch.set_num_threads(1)


class A2CAgent:
    def __init__(self, net, value_head, optimizer, n_steps=5):
        self.net = net
        self.value_head = value_head
        self.optimizer = optimizer
        self.n_steps = n_steps
        self.total_entropy = torch.zeros(())
        self.value_trace = []
        self.advantages = []
        self.update_count = 0

    def rollout(self, obs_seq):
        log_probs, values, rewards, entropies = [], [], [], []
        for obs in obs_seq:
            logits = self.net(obs)
            dist = Categorical(logits=logits)
            a = dist.sample()
            value = self.value_head(obs).squeeze(-1)
            log_probs.append(dist.log_prob(a))  # ok
            values.append(value)  # ok
            entropies.append(dist.entropy())  # ok
            rewards.append(1.0 if a.item() == int(obs[0] > 0) else 0.0)  # ok
            self.value_trace.append(value.item())  # ok
        return log_probs, values, rewards, entropies

    def update(self, obs_seq):
        log_probs, values, rewards, entropies = self.rollout(obs_seq)
        R = 0.0
        returns = []
        for r in reversed(rewards):
            R = r + 0.95 * R
            returns.insert(0, R)
        returns = torch.tensor(returns)
        values = torch.stack(values)
        adv = returns - values
        actor = -(torch.stack(log_probs) * adv.detach()).mean()
        critic = adv.pow(2).mean()
        ent = torch.stack(entropies).mean()
        loss = actor + 0.5 * critic - 0.01 * ent
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.total_entropy = self.total_entropy + ent  # expect: TEN501
        self.advantages.append(adv)  # expect: TEN501
        self.update_count += 1
        return loss


net = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 2))
vh = nn.Linear(3, 1)
agent = A2CAgent(net, vh, torch.optim.RMSprop(list(net.parameters()) + list(vh.parameters()), lr=7e-4))
recent = []
for it in range(15):
    obs_seq = [torch.randn(3) for _ in range(agent.n_steps)]
    loss = agent.update(obs_seq)
    recent.append(loss)  # expect: TEN501
    if len(recent) > 5:
        recent.pop(0)

print("updates", agent.update_count, "mean entropy", round(float(agent.total_entropy) / agent.update_count, 5))
print("adv", round(float(torch.cat(agent.advantages).abs().mean()), 5), "values", len(agent.value_trace))
print("recent", [round(float(l), 4) for l in recent])
