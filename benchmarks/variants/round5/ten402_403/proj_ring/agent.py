"""History-conditioned policy: acts on the last few observations and actions."""
import torch
import torch.nn as nn

from ring_ops import append_copy, push_back_safe, push_front, shift_left


class HistoryPolicy(nn.Module):
    def __init__(self, obs_dim=3, n_actions=4, obs_hist=4, act_hist=3, num_envs=2):
        super().__init__()
        self.n_actions = n_actions
        self.obs_hist = torch.zeros(obs_hist, num_envs, obs_dim)
        self.act_hist = torch.zeros(num_envs, act_hist)
        self.rew_hist = torch.zeros(obs_hist, num_envs)
        self.net = nn.Sequential(nn.Linear(obs_hist * obs_dim + act_hist, 32), nn.Tanh(), nn.Linear(32, n_actions))

    def observe(self, obs, reward):
        shift_left(self.obs_hist)
        self.obs_hist[-1] = obs
        push_back_safe(self.rew_hist, reward)

    @torch.no_grad()
    def act(self):
        feats = torch.cat([self.obs_hist.permute(1, 0, 2).flatten(1), self.act_hist / self.n_actions], 1)
        a = self.net(feats).argmax(1)
        push_front(self.act_hist, a.float())
        return a


def run(steps=5, seed=0):
    torch.manual_seed(seed)
    pol = HistoryPolicy()
    log = torch.zeros(8, 2)
    for t in range(steps):
        a = pol.act()
        pol.observe(torch.randn(2, 3), torch.randn(2))
    append_copy(log, pol.rew_hist, 2)
    return pol, log


if __name__ == "__main__":
    pol, log = run()
    print("action history:", pol.act_hist.tolist())
