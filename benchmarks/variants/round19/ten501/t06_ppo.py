"""PPO with a rollout buffer, clipped objective and per-update statistics."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical


class ActorCritic(nn.Module):
    def __init__(self, obs=4, act=2):
        super().__init__()
        self.pi = nn.Sequential(nn.Linear(obs, 16), nn.Tanh(), nn.Linear(16, act))
        self.v = nn.Sequential(nn.Linear(obs, 16), nn.Tanh(), nn.Linear(16, 1))

    def act(self, obs):
        dist = Categorical(logits=self.pi(obs))
        a = dist.sample()
        return a, dist.log_prob(a), self.v(obs).squeeze(-1)

    def evaluate(self, obs, acts):
        dist = Categorical(logits=self.pi(obs))
        return dist.log_prob(acts), dist.entropy(), self.v(obs).squeeze(-1)


class RolloutBuffer:
    def __init__(self):
        self.clear()

    def clear(self):
        self.obs, self.acts, self.logps, self.rews, self.vals = [], [], [], [], []


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    ac = ActorCritic()
    opt = torch.optim.Adam(ac.parameters(), lr=3e-3)
    buf = RolloutBuffer()
    stats = {"approx_kl": [], "clipfrac": [], "pg_loss": [], "v_loss": []}
    value_trace = []
    for update in range(3):
        buf.clear()
        obs = torch.randn(4)
        for t in range(8):
            with torch.no_grad():
                a, logp, v = ac.act(obs)
            buf.obs.append(obs)  # ok
            buf.acts.append(a)  # ok
            buf.logps.append(logp)  # ok
            buf.vals.append(v)  # ok
            buf.rews.append(float(a.item() == t % 2))  # ok
            value_trace.append(ac.v(obs).squeeze(-1))  # expect: TEN501
            obs = torch.randn(4)
        obs_b, act_b = torch.stack(buf.obs), torch.stack(buf.acts)
        old_logp, vals = torch.stack(buf.logps), torch.stack(buf.vals)
        rets = torch.tensor(buf.rews).flip(0).cumsum(0).flip(0)
        adv = rets - vals
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        for epoch in range(2):
            logp, ent, v = ac.evaluate(obs_b, act_b)
            ratio = torch.exp(logp - old_logp)
            pg_loss = -torch.min(ratio * adv, torch.clamp(ratio, 0.8, 1.2) * adv).mean()
            v_loss = F.mse_loss(v, rets)
            approx_kl = (old_logp - logp).mean()
            clipfrac = ((ratio - 1.0).abs() > 0.2).float().mean()
            loss = pg_loss + 0.5 * v_loss - 0.01 * ent.mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            stats["approx_kl"].append(approx_kl)  # expect: TEN501
            stats["clipfrac"].append(clipfrac)  # ok
            stats["pg_loss"].append(pg_loss.item())  # ok
            stats["v_loss"].append(v_loss.detach().cpu().numpy())  # ok
    print({k: float(sum(v)) / len(v) for k, v in stats.items()}, len(value_trace))


if __name__ == "__main__":
    main()
