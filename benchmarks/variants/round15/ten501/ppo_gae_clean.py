"""PPO advantage computation (GAE) done under no_grad, then minibatch updates."""
import torch
import torch.nn as nn


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.actor = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 2))
        self.critic = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 1))

    def evaluate(self, obs, actions):
        dist = torch.distributions.Categorical(logits=self.actor(obs))
        return dist.log_prob(actions), self.critic(obs).squeeze(-1), dist.entropy()


def compute_gae(rewards, values, dones, last_value, gamma=0.99, lam=0.95):
    advantages = []
    gae = 0.0
    next_value = last_value
    for t in reversed(range(len(rewards))):
        delta = rewards[t] + gamma * next_value * (1 - dones[t]) - values[t]
        gae = delta + gamma * lam * (1 - dones[t]) * gae
        advantages.insert(0, gae)  # ok
        next_value = values[t]
    return torch.stack(advantages)


def train(iterations=3, T=16):
    ac = ActorCritic()
    opt = torch.optim.Adam(ac.parameters(), lr=3e-3)
    explained_var, entropy_log = [], []
    for it in range(iterations):
        obs = torch.randn(T, 3)
        with torch.no_grad():
            dist = torch.distributions.Categorical(logits=ac.actor(obs))
            actions = dist.sample()
            old_logp = dist.log_prob(actions)
            values = ac.critic(obs).squeeze(-1)
            rewards = (actions == (obs[:, 0] > 0).long()).float()
            dones = torch.zeros(T)
            adv = compute_gae(rewards, values, dones, last_value=torch.tensor(0.0))
            returns = adv + values
        for idx in torch.randperm(T).split(8):
            logp, v, ent = ac.evaluate(obs[idx], actions[idx])
            ratio = (logp - old_logp[idx]).exp()
            a = (adv[idx] - adv[idx].mean()) / (adv[idx].std() + 1e-8)
            loss = -torch.min(ratio * a, ratio.clamp(0.8, 1.2) * a).mean() + 0.5 * (v - returns[idx]).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            entropy_log.append(ent.mean().item())  # ok
        explained_var.append(1 - (returns - values).var() / returns.var())  # ok
    return explained_var, entropy_log


if __name__ == "__main__":
    torch.manual_seed(0)
    ev, ent = train()
    print([round(float(e), 3) for e in ev], len(ent))
