import torch

torch.manual_seed(0)


class RolloutBuffer:
    """Stores the last `horizon` steps of (obs, reward) for each env in one flat tensor."""

    def __init__(self, envs, horizon, obs_dim):
        self.horizon, self.obs_dim = horizon, obs_dim
        self.store = torch.zeros(envs, horizon, obs_dim + 1)

    def add(self, obs, rew):
        flat = self.store.view(self.store.shape[0], -1)
        d = self.obs_dim + 1
        flat[:, :-d] = flat[:, d:]  # expect: TEN403
        self.store[:, -1, :-1] = obs  # ok
        self.store[:, -1, -1] = rew  # ok

    def rewards(self):
        return self.store[..., -1]


class RollingRolloutBuffer(RolloutBuffer):
    def add(self, obs, rew):
        self.store = self.store.roll(-1, dims=1)  # ok
        self.store[:, -1, :-1] = obs  # ok
        self.store[:, -1, -1] = rew  # ok


for cls in (RolloutBuffer, RollingRolloutBuffer):
    torch.manual_seed(1)
    buf = cls(3, 5, 4)
    for step in range(8):
        buf.add(torch.randn(3, 4), torch.full((3,), float(step)))
    print(cls.__name__, buf.rewards()[0].tolist(), round(buf.store.sum().item(), 4))
