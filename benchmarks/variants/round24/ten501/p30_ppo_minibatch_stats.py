"""PPO update epochs over minibatches with CleanRL-style diagnostics."""
import torch
import torch.nn as nn
from torch.distributions import Normal

torch.manual_seed(0)


class Agent(nn.Module):
    def __init__(self):
        super().__init__()
        self.actor_mean = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 1))
        self.actor_logstd = nn.Parameter(torch.zeros(1))
        self.critic = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 1))

    def get_action_and_value(self, x, action=None):
        mean = self.actor_mean(x)
        dist = Normal(mean, self.actor_logstd.exp().expand_as(mean))
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action).sum(1), dist.entropy().sum(1), self.critic(x).squeeze(1)


agent = Agent()
opt = torch.optim.Adam(agent.parameters(), lr=3e-4)
obs = torch.randn(32, 3)
with torch.no_grad():
    actions, old_logp, _, old_values = agent.get_action_and_value(obs)
advantages = torch.randn(32)
returns = old_values + advantages
clip_coef = 0.2
stats = {"policy_loss": [], "value_loss": []}
approx_kls, clipfracs = [], []
entropy_sum = 0.0
entropy_sum_ok = 0.0
for update_epoch in range(2):
    perm = torch.randperm(32)
    for start in range(0, 32, 8):
        mb = perm[start:start + 8]
        _, logp, entropy, newvalue = agent.get_action_and_value(obs[mb], actions[mb])
        logratio = logp - old_logp[mb]
        ratio = logratio.exp()
        approx_kls.append(((ratio - 1) - logratio).mean())  # expect: TEN501
        clipfracs += [((ratio - 1.0).abs() > clip_coef).float().mean().item()]  # ok
        pg_loss = torch.max(-advantages[mb] * ratio, -advantages[mb] * ratio.clamp(1 - clip_coef, 1 + clip_coef)).mean()
        v_loss = 0.5 * ((newvalue - returns[mb]) ** 2).mean()
        loss = pg_loss - 0.01 * entropy.mean() + 0.5 * v_loss
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
        opt.step()
        stats["policy_loss"].append(pg_loss.item())  # ok
        stats["value_loss"].append(v_loss)  # expect: TEN501
        entropy_sum += entropy.mean()  # expect: TEN501
        entropy_sum_ok += entropy.mean().item()  # ok
print(float(torch.stack(approx_kls).mean()), sum(clipfracs), float(entropy_sum), entropy_sum_ok)
