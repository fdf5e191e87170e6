"""Feedback comb filter over a batch of signals, with a delay line buffer."""
import torch


class Comb:
    def __init__(self, batch, delay, g):
        self.line = torch.zeros(batch, delay)
        self.g = g

    def step(self, x):
        y = x + self.g * self.line[:, -1]
        self.line[:, 1:] = self.line[:, :-1].detach()  # expect: TEN403
        self.line[:, 0] = y  # ok
        return y


class CombSafe(Comb):
    def step(self, x):
        y = x + self.g * self.line[:, -1]
        self.line[:, 1:] = self.line[:, :-1] * 1.0  # ok
        self.line[:, 0] = y  # ok
        return y


def smooth_(env, alpha):
    # one-pole smoothing written vectorised: the source is an arithmetic result (a new tensor)
    env[:, 1:] = alpha * env[:, :-1] + (1 - alpha) * env[:, 1:]  # ok
    return env


torch.manual_seed(0)
sig = torch.zeros(2, 30)
sig[:, 0] = 1.0
for cls in (Comb, CombSafe):
    c = cls(2, 4, 0.5)
    out = torch.stack([c.step(sig[:, t]) for t in range(30)], 1)
    print(cls.__name__, "impulse response", [round(v, 4) for v in out[0, :12].tolist()])
env = smooth_(torch.rand(2, 10), 0.7)
print("envelope", [round(v, 4) for v in env[0].tolist()])
