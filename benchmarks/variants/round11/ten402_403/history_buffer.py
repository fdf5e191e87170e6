"""Recurrent-free policy that conditions on the last few (obs, action) pairs."""
from typing import List

import torch
import torch.nn as nn


class HistoryPolicy(nn.Module):
    def __init__(self, obs_dim=11, act_dim=3, hist=8, n_envs=16):
        super().__init__()
        self.hist = hist
        self.obs_hist = torch.zeros(n_envs, hist, obs_dim)
        self.act_hist = torch.zeros(n_envs, hist, act_dim)
        self.net = nn.Sequential(nn.Flatten(), nn.Linear(hist * (obs_dim + act_dim), 256), nn.Tanh(),
                                 nn.Linear(256, act_dim))

    @torch.no_grad()
    def observe(self, obs: torch.Tensor, last_action: torch.Tensor):
        # newest entry lives at index 0
        self.obs_hist[:, 1:], self.obs_hist[:, 0] = self.obs_hist[:, :-1], obs  # expect: TEN403
        self.act_hist[:, 1:] = self.act_hist[:, :-1].detach()  # expect: TEN403
        self.act_hist[:, 0] = last_action  # ok

    def forward(self):
        return torch.tanh(self.net(torch.cat([self.obs_hist, self.act_hist], dim=-1)))

    def reset_envs(self, done: torch.Tensor):
        self.obs_hist[done] = 0.0
        self.act_hist[done] = 0.0


class PairedStats:
    """Keeps [running, snapshot] halves of a statistics vector side by side."""

    def __init__(self, d: int):
        self.d = d
        self.stats = torch.zeros(2 * d)

    def promote(self):
        d = self.d
        self.stats[d:] = self.stats[:d]  # ok

    def rewind(self):
        d = self.d
        self.stats[:d] = self.stats[d:2 * d]  # ok


class EpisodeLog:
    def __init__(self, size=100):
        self.returns: List[float] = [0.0] * size

    def push(self, ret: float):
        self.returns[1:] = self.returns[:-1]  # ok
        self.returns[0] = ret


if __name__ == "__main__":
    pol = HistoryPolicy()
    act = torch.zeros(16, 3)
    for _ in range(20):
        pol.observe(torch.randn(16, 11), act)
        act = pol()
    print(act.shape)
