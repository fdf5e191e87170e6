"""Toy actor that conditions on recent observations and previous actions.

Run from the parent folder:  python -m proj_rl.agent
"""
import torch
from torch import nn

from proj_rl.buffers import ObsHistory, PrevActionHistory, shift_append, shift_append_safe


class HistoryPolicy(nn.Module):
    def __init__(self, obs_dim, hist_len, n_actions):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim * hist_len + hist_len * n_actions, 64),
                                 nn.Tanh(), nn.Linear(64, n_actions))

    def forward(self, obs_hist, act_hist):
        return self.net(torch.cat([obs_hist.flatten(1), act_hist], dim=-1))


def rollout(steps=10, n_envs=2, obs_dim=3, hist_len=4, n_actions=5, safe=False):
    policy = HistoryPolicy(obs_dim, hist_len, n_actions)
    obs_hist = torch.zeros(n_envs, hist_len, obs_dim)
    per_env = [torch.zeros(hist_len, obs_dim) for _ in range(n_envs)]
    acts = PrevActionHistory(n_envs, hist_len, n_actions)
    cpu_log = ObsHistory(hist_len, obs_dim)
    push = shift_append_safe if safe else shift_append
    for t in range(steps):
        obs = torch.full((n_envs, obs_dim), float(t))
        for e in range(n_envs):
            push(per_env[e], obs[e])
        obs_hist = torch.stack(per_env)
        cpu_log.push(obs[0].numpy())
        with torch.no_grad():
            a = torch.distributions.Categorical(logits=policy(obs_hist, acts.buffer)).sample()
        acts.push(a)
    return obs_hist[0, :, 0].tolist(), acts.buffer[0].view(hist_len, n_actions).argmax(-1).tolist()


if __name__ == "__main__":
    torch.manual_seed(0)
    print("safe:", rollout(safe=True))
    try:
        print("unsafe:", rollout(safe=False))
    except RuntimeError as e:
        print("unsafe: RuntimeError:", str(e)[:60])
