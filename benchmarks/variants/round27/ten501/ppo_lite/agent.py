"""PPO-clip agent (single environment, tiny horizon)."""
import torch

from .nets import GaussianActorCritic


class PPOAgent:
    def __init__(self, logger, horizon=8, clip=0.2):
        self.ac = GaussianActorCritic()
        self.pi_opt = torch.optim.Adam(list(self.ac.mu.parameters()) + [self.ac.log_std], lr=3e-3)
        self.v_opt = torch.optim.Adam(self.ac.v.parameters(), lr=1e-2)
        self.logger = logger
        self.horizon = horizon
        self.clip = clip
        self.value_trace = []
        self.kl_history = []

    def collect(self, env):
        obs_buf, act_buf, rew_buf, logp_buf = [], [], [], []
        ent_terms = []
        o = env.reset()
        for t in range(self.horizon):
            with torch.no_grad():
                d = self.ac.dist(o)
                a = d.sample()
                logp_buf.append(d.log_prob(a).sum())  # ok
            d_live = self.ac.dist(o)
            ent_terms.append(d_live.entropy().sum())  # ok
            self.value_trace.append(self.ac.value(o))  # expect: TEN501
            obs_buf.append(o)
            act_buf.append(a)
            o, r = env.step(a)
            rew_buf.append(r)
        ent_loss = -1e-3 * torch.stack(ent_terms).mean()
        self.pi_opt.zero_grad()
        ent_loss.backward()
        self.pi_opt.step()
        return torch.stack(obs_buf), torch.stack(act_buf), torch.tensor(rew_buf), torch.stack(logp_buf)

    def update(self, obs, act, ret, logp_old):
        adv = ret - self.ac.value(obs).detach()
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        for _ in range(3):
            logp = self.ac.dist(obs).log_prob(act).sum(-1)
            ratio = torch.exp(logp - logp_old)
            clip_adv = torch.clamp(ratio, 1 - self.clip, 1 + self.clip) * adv
            loss_pi = -(torch.min(ratio * adv, clip_adv)).mean()
            approx_kl = (logp_old - logp).mean()
            self.pi_opt.zero_grad()
            loss_pi.backward()
            self.pi_opt.step()
        self.kl_history.append(approx_kl)  # expect: TEN501
        loss_v = ((self.ac.value(obs) - ret) ** 2).mean()
        self.v_opt.zero_grad()
        loss_v.backward()
        self.v_opt.step()
        self.logger.store(LossPi=loss_pi.item(), LossV=loss_v.item(), KL=approx_kl.item())  # ok
        return loss_pi, loss_v
