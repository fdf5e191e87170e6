"""Shift-register style updates written as tuple assignments."""
import numpy as np
import torch

torch.manual_seed(0)
torch.set_num_threads(1)


class ObservationHistory:
    def __init__(self, batch, length, dim):
        self.x = torch.zeros(batch, length, dim)
        self.t = torch.zeros(batch, length)

    def push(self, obs, stamp):
        self.x[:, :-1], self.x[:, -1] = self.x[:, 1:], obs  # expect: TEN403
        self.t[:, :-1], self.t[:, -1] = self.t[:, 1:].clone(), stamp  # ok


class ObservationHistoryNP:
    def __init__(self, batch, length, dim):
        self.x = np.zeros((batch, length, dim), np.float32)

    def push(self, obs):
        self.x[:, :-1], self.x[:, -1] = self.x[:, 1:], obs  # ok


def swap_halves(a):
    left, right = a[:, :3].clone(), a[:, 3:].clone()
    a[:, :3], a[:, 3:] = right, left  # ok
    return a


if __name__ == "__main__":
    h, hn = ObservationHistory(2, 4, 3), ObservationHistoryNP(2, 4, 3)
    for step in range(6):
        obs = torch.full((2, 3), float(step))
        h.push(obs, torch.full((2,), step * 0.1))
        hn.push(obs.numpy())
    print("torch history", h.x[0, :, 0].tolist())
    print("numpy history", hn.x[0, :, 0].tolist())
    print("stamps", [round(v, 2) for v in h.t[0].tolist()])
    print(swap_halves(torch.arange(12.).reshape(2, 6)).tolist())
