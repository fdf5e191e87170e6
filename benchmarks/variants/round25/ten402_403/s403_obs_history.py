"""Proprioception + action history for a legged-robot policy (N envs x H steps)."""
import torch
import torch.nn as nn


class HistoryEncoder:
    def __init__(self, n_envs, hist, obs_dim, act_dim):
        self.obs_hist = torch.zeros(n_envs, hist, obs_dim)
        self.act_hist = torch.zeros(n_envs, hist, act_dim)

    def update(self, obs, act):
        self.obs_hist[:, 1:], self.act_hist[:, 1:] = self.obs_hist[:, :-1], self.act_hist[:, :-1]  # expect: TEN403
        self.obs_hist[:, 0], self.act_hist[:, 0] = obs, act  # ok

    def reset_envs(self, mask):
        self.obs_hist[mask] = 0.0  # ok

    def features(self):
        return torch.cat([self.obs_hist.flatten(1), self.act_hist.flatten(1)], 1)


torch.manual_seed(0)
enc = HistoryEncoder(4, 3, 5, 2)
policy = nn.Sequential(nn.Linear(3 * 7, 16), nn.Tanh(), nn.Linear(16, 2))
obs = torch.randn(4, 5)
with torch.no_grad():
    for t in range(6):
        act = policy(enc.features())
        enc.update(obs, act)
        obs = obs + 0.1 * torch.randn(4, 5) + 0.05 * act.sum(1, keepdim=True)
        if t == 3:
            enc.reset_envs(torch.tensor([True, False, False, False]))
print("history norms", [round(v, 5) for v in enc.obs_hist.norm(dim=2)[1].tolist()])
print("last action", [round(v, 5) for v in act[1].tolist()])
