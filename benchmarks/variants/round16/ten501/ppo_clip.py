"""Clipped-surrogate PPO with a rollout storage object and GAE."""
import torch
import torch.nn as nn
from torch.distributions import Categorical

torch.manual_seed(0)

N_ENVS, HORIZON, OBS, ACTS = 4, 16, 5, 3


class MatchingGame:
    """Reward 1 when the action equals the index of the largest of the first ACTS features."""

    def __init__(self, n, seed=3):
        self.n = n
        self.g = torch.Generator().manual_seed(seed)

    def reset(self):
        self.obs = torch.randn(self.n, OBS, generator=self.g)
        return self.obs.clone()

    def step(self, act):
        reward = (self.obs[:, :ACTS].argmax(1) == act).float() - 0.1
        self.obs = 0.7 * self.obs + 0.5 * torch.randn(self.n, OBS, generator=self.g)
        done = (torch.rand(self.n, generator=self.g) < 0.05).float()
        return self.obs.clone(), reward, done


class Storage:
    def __init__(self):
        self.obs = torch.zeros(HORIZON, N_ENVS, OBS)
        self.act = torch.zeros(HORIZON, N_ENVS, dtype=torch.long)
        self.logp = torch.zeros(HORIZON, N_ENVS)
        self.val = torch.zeros(HORIZON, N_ENVS)
        self.rew = torch.zeros(HORIZON, N_ENVS)
        self.done = torch.zeros(HORIZON, N_ENVS)

    def gae(self, last_val, last_done, gamma=0.99, lam=0.95):
        adv = torch.zeros_like(self.rew)
        running = torch.zeros(N_ENVS)
        for t in range(HORIZON - 1, -1, -1):
            nxt_val = last_val if t == HORIZON - 1 else self.val[t + 1]
            nxt_live = 1.0 - (last_done if t == HORIZON - 1 else self.done[t + 1])
            delta = self.rew[t] + gamma * nxt_val * nxt_live - self.val[t]
            running = delta + gamma * lam * nxt_live * running
            adv[t] = running
        return adv, adv + self.val


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.pi = nn.Sequential(nn.Linear(OBS, 32), nn.Tanh(), nn.Linear(32, ACTS))
        self.v = nn.Sequential(nn.Linear(OBS, 32), nn.Tanh(), nn.Linear(32, 1))
        nn.init.orthogonal_(self.pi[-1].weight, 0.01)

    def evaluate(self, obs, act=None):
        dist = Categorical(logits=self.pi(obs))
        if act is None:
            act = dist.sample()
        return act, dist.log_prob(act), dist.entropy(), self.v(obs).squeeze(-1)


def ppo_update(net, opt, st, adv, ret, kl_trace, clip=0.2, epochs=2, n_mb=4):
    flat = lambda t: t.reshape(-1, *t.shape[2:])
    obs, act, old_logp, adv, ret = flat(st.obs), flat(st.act), flat(st.logp), flat(adv), flat(ret)
    total = obs.shape[0]
    mb = total // n_mb
    clipped = []
    for _ in range(epochs):
        perm = torch.randperm(total)
        for k in range(n_mb):
            ids = perm[k * mb:(k + 1) * mb]
            _, logp, ent, v = net.evaluate(obs[ids], act[ids])
            log_ratio = logp - old_logp[ids]
            ratio = log_ratio.exp()
            kl_trace.append((ratio - 1 - log_ratio).mean())  # expect: TEN501
            clipped.append(((ratio - 1).abs() > clip).float().mean().item())  # ok

            a = (adv[ids] - adv[ids].mean()) / (adv[ids].std() + 1e-8)
            surrogate = torch.min(ratio * a, ratio.clamp(1 - clip, 1 + clip) * a).mean()
            loss = -surrogate + 0.5 * (v - ret[ids]).pow(2).mean() - 0.01 * ent.mean()
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), 0.5)
            opt.step()
    return sum(clipped) / len(clipped)


def main():
    env, net = MatchingGame(N_ENVS), ActorCritic()
    opt = torch.optim.Adam(net.parameters(), lr=2.5e-3, eps=1e-5)
    obs, done = env.reset(), torch.zeros(N_ENVS)
    kl_trace = []
    for update in range(3):
        st = Storage()
        for t in range(HORIZON):
            st.obs[t], st.done[t] = obs, done
            with torch.no_grad():
                act, logp, _, val = net.evaluate(obs)
            st.act[t] = act
            st.logp[t] = logp  # ok
            st.val[t] = val  # ok
            obs, st.rew[t], done = env.step(act)
        with torch.no_grad():
            last_val = net.v(obs).squeeze(-1)
        adv, ret = st.gae(last_val, done)
        clipfrac = ppo_update(net, opt, st, adv, ret, kl_trace)
        print(f"update {update}: mean reward {st.rew.mean().item():.3f} clipfrac {clipfrac:.3f} "
              f"kl {kl_trace[-1].item():.4f}")


if __name__ == "__main__":
    main()
