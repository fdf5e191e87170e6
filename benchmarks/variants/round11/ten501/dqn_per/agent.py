import copy

import torch
import torch.nn as nn

from .buffer import PrioritizedReplay
from .stats import EpisodeStats


class QNet(nn.Module):
    def __init__(self, obs_dim, n_act):
        super().__init__()
        self.f = nn.Sequential(nn.Linear(obs_dim, 128), nn.ReLU(), nn.Linear(128, 128),
                               nn.ReLU(), nn.Linear(128, n_act))

    def forward(self, x):
        return self.f(x)


def learn(q, q_targ, opt, buf, stats, batch=64, gamma=0.99):
    idx, o, a, r, o2, d, w = buf.sample(batch)
    q_sa = q(o).gather(1, a[:, None]).squeeze(1)
    with torch.no_grad():
        a2 = q(o2).argmax(1, keepdim=True)
        target = r + gamma * (1 - d) * q_targ(o2).gather(1, a2).squeeze(1)
    td = q_sa - target
    loss = (w * nn.functional.smooth_l1_loss(q_sa, target, reduction="none")).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    buf.update_priorities(idx, td.abs())  # expect: TEN501
    stats.record_td(td.abs().mean().item())  # ok
    return loss


def train(env, steps=100_000, eps_decay=30_000):
    obs_dim, n_act = env.observation_space.shape[0], env.action_space.n
    q = QNet(obs_dim, n_act)
    q_targ = copy.deepcopy(q)
    opt = torch.optim.Adam(q.parameters(), lr=1e-4)
    buf = PrioritizedReplay(50_000, obs_dim)
    stats = EpisodeStats()
    obs, _ = env.reset()
    ep_ret, ep_len = 0.0, 0
    for t in range(steps):
        eps = max(0.05, 1 - t / eps_decay)
        if torch.rand(()) < eps:
            a = env.action_space.sample()
        else:
            with torch.no_grad():
                a = int(q(torch.as_tensor(obs, dtype=torch.float32)).argmax())
        o2, r, term, trunc, _ = env.step(a)
        buf.add(torch.as_tensor(obs), a, r, torch.as_tensor(o2), float(term))  # ok
        ep_ret += r  # ok
        ep_len += 1  # ok
        obs = o2
        if term or trunc:
            stats.end_episode(ep_ret, ep_len)  # ok
            obs, _ = env.reset()
            ep_ret, ep_len = 0.0, 0
        if t > 1000:
            learn(q, q_targ, opt, buf, stats)
        if t % 1000 == 0:
            q_targ.load_state_dict(q.state_dict())
    return q, stats
