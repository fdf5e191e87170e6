"""PPO-clip on a toy continuous task; rollouts are gathered without grad."""
import torch
import torch.nn as nn
from torch.distributions import Normal


class ActorCritic(nn.Module):
    def __init__(self, obs_dim=4, act_dim=2):
        super().__init__()
        self.pi = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh(), nn.Linear(32, act_dim))
        self.v = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh(), nn.Linear(32, 1))
        self.log_std = nn.Parameter(torch.full((act_dim,), -0.5))

    def dist(self, obs):
        return Normal(self.pi(obs), self.log_std.exp())


def reward_fn(obs, act):
    return -((act - obs[..., :2]) ** 2).sum(-1)


@torch.no_grad()
def collect(ac, n=48, obs_dim=4):
    obs = torch.randn(n, obs_dim)
    d = ac.dist(obs)
    act = d.sample()
    buf = {"obs": obs, "act": act, "logp": d.log_prob(act).sum(-1)}
    buf["val"] = ac.v(obs).squeeze(-1)
    buf["ret"] = reward_fn(obs, act)
    adv = buf["ret"] - buf["val"]
    buf["adv"] = (adv - adv.mean()) / (adv.std() + 1e-8)
    return buf


class PPO:
    def __init__(self, ac, clip=0.2, epochs=2, minibatch=16, lr=3e-3):
        self.ac, self.clip, self.epochs, self.minibatch = ac, clip, epochs, minibatch
        self.opt = torch.optim.Adam(ac.parameters(), lr=lr)
        self.stats = {"approx_kl": [], "clipfrac": [], "entropy": [], "v_loss": []}
        self.rollout_values = []

    def update(self, buf):
        n = buf["obs"].shape[0]
        epoch_entropy = 0.0
        for _ in range(self.epochs):
            perm = torch.randperm(n)
            for start in range(0, n, self.minibatch):
                mb = perm[start:start + self.minibatch]
                d = self.ac.dist(buf["obs"][mb])
                logp = d.log_prob(buf["act"][mb]).sum(-1)
                ratio = torch.exp(logp - buf["logp"][mb])
                adv = buf["adv"][mb]
                clipped = ratio.clamp(1 - self.clip, 1 + self.clip) * adv
                pi_loss = -torch.min(ratio * adv, clipped).mean()
                v_loss = (self.ac.v(buf["obs"][mb]).squeeze(-1) - buf["ret"][mb]).pow(2).mean()
                ent = d.entropy().sum(-1).mean()
                loss = pi_loss + 0.5 * v_loss - 0.01 * ent
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
                self.last_loss = loss  # either
                approx_kl = (buf["logp"][mb] - logp).mean()
                clipfrac = ((ratio - 1).abs() > self.clip).float().mean()
                self.stats["approx_kl"].append(approx_kl)  # expect: TEN501
                self.stats["clipfrac"].append(clipfrac.item())  # ok
                self.stats["v_loss"].append(v_loss.detach())  # ok
                epoch_entropy += ent  # expect: TEN501
        self.stats["entropy"].append(epoch_entropy / self.epochs)  # expect: TEN501
        self.rollout_values.append(buf["val"].mean())  # ok


if __name__ == "__main__":
    torch.manual_seed(0)
    ac = ActorCritic()
    ppo = PPO(ac)
    for it in range(3):
        buf = collect(ac)
        ppo.update(buf)
        print(it, float(buf["ret"].mean()), len(ppo.stats["approx_kl"]))
