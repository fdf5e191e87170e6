"""Observation history buffers for a recurrent-free PPO policy (vectorized envs, tensors on GPU)."""
import torch


class ObsHistory:
    """Last `length` observations per env, oldest first: (n_envs, length, obs_dim)."""

    def __init__(self, n_envs, length, obs_dim, device="cuda"):
        self.buf = torch.zeros(n_envs, length, obs_dim, device=device)

    def reset(self, env_ids, obs):
        self.buf[env_ids] = obs[:, None, :]

    def push(self, obs):
        self.buf[:, :-1] = self.buf[:, 1:].clone()
        self.buf[:, -1] = obs
        return self.buf.flatten(1)


class ActionHistory:
    """Previous actions, newest first, rolled with torch.roll."""

    def __init__(self, n_envs, length, act_dim, device="cuda"):
        self.buf = torch.zeros(n_envs, length, act_dim, device=device)

    def push(self, actions):
        self.buf = torch.roll(self.buf, shifts=1, dims=1)
        self.buf[:, 0] = actions
        return self.buf.flatten(1)

    def reset(self, env_ids):
        self.buf[env_ids] = 0.0


class ContactHistory:
    """Boolean foot-contact history, shifted in place through a clone of the source slice."""

    def __init__(self, n_envs, length, n_feet, device="cuda"):
        self.buf = torch.zeros(n_envs, n_feet, length, dtype=torch.bool, device=device)

    def push(self, contacts):
        shifted = self.buf[..., 1:].clone()
        self.buf[..., :-1] = shifted
        self.buf[..., -1] = contacts
        return self.buf

    def air_time(self):
        return (~self.buf).float().sum(-1)


class HistoryEncoder(torch.nn.Module):
    def __init__(self, obs_dim, act_dim, length, out_dim=64):
        super().__init__()
        self.net = torch.nn.Sequential(
            torch.nn.Linear(length * (obs_dim + act_dim), 256), torch.nn.ELU(), torch.nn.Linear(256, out_dim)
        )

    def forward(self, obs_hist, act_hist):
        return self.net(torch.cat([obs_hist, act_hist], dim=-1))


if __name__ == "__main__":
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    n, L = 4096, 16
    oh, ah = ObsHistory(n, L, 48, dev), ActionHistory(n, L, 12, dev)
    ch = ContactHistory(n, L, 4, dev)
    enc = HistoryEncoder(48, 12, L).to(dev)
    for _ in range(5):
        o = oh.push(torch.randn(n, 48, device=dev))
        a = ah.push(torch.randn(n, 12, device=dev))
        ch.push(torch.rand(n, 4, device=dev) > 0.5)
        z = enc(o, a)
    print(z.shape, ch.air_time().mean().item())
