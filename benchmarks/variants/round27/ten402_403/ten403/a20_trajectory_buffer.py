import torch

torch.manual_seed(0)


class TrajectoryWindow:
    """(n_envs, T, obs_dim) sliding window used for a recurrent critic."""

    def __init__(self, n_envs, T, obs_dim):
        self.obs = torch.zeros(n_envs, T, obs_dim)
        self.done = torch.zeros(n_envs, T)

    def add(self, o, d):
        self.obs[:, :-1] = self.obs[:, 1:]  # expect: TEN403
        self.obs[:, -1] = o  # ok
        self.done[:, :-1] = self.done[:, 1:].clone()  # ok
        self.done[:, -1] = d  # ok


class ReversedWindow(TrajectoryWindow):
    """Newest first; shifting the other way."""

    def add(self, o, d):
        self.obs[:, 1:] = self.obs[:, :-1]  # expect: TEN403
        self.obs[:, 0] = o
        self.done[:, 1:] = self.done[:, :-1]  # expect: TEN403
        self.done[:, 0] = d


for cls in (TrajectoryWindow, ReversedWindow):
    torch.manual_seed(0)
    w = cls(2, 4, 3)
    for step in range(7):
        w.add(torch.randn(2, 3), (torch.rand(2) < 0.3).float())
    print(cls.__name__, "obs sums", [round(v, 4) for v in w.obs.sum(-1).flatten().tolist()],
          "dones", w.done.flatten().tolist())
