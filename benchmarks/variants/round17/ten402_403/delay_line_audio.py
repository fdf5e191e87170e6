"""Delay lines and a feedback comb filter for a batch of audio signals."""
import math

import torch

torch.manual_seed(0)
torch.set_num_threads(1)


class DelayLine:
    def __init__(self, channels, length):
        self.line = torch.zeros(channels, length)

    def tick(self, sample):
        out = self.line[:, -1].clone()  # ok
        self.line[:, 1:] = self.line[:, :-1]  # expect: TEN403
        self.line[:, 0] = sample  # ok
        return out


class RollingDelayLine(DelayLine):
    def tick(self, sample):
        out = self.line[:, -1].clone()  # ok
        self.line = torch.roll(self.line, shifts=1, dims=1)  # ok
        self.line[:, 0] = sample  # ok
        return out


def comb_vectorised(x, delay, g):
    y = x.clone()
    y[:, delay:].add_(y[:, :-delay], alpha=g)  # expect: TEN403
    return y


def comb_feedforward(x, delay, g):
    y = x.clone()
    y[:, delay:] += g * y[:, :-delay]  # ok
    return y


def comb_reference(x, delay, g):
    y = x.clone()
    for t in range(delay, x.shape[1]):
        y[:, t] += g * y[:, t - delay]  # ok
    return y


def main():
    sr = 400
    t = torch.arange(sr) / sr
    x = torch.stack([torch.sin(2 * math.pi * 5 * t), torch.sign(torch.sin(2 * math.pi * 3 * t))])
    for cls in (DelayLine, RollingDelayLine):
        dl = cls(2, 37)
        outs = torch.stack([dl.tick(x[:, i]) for i in range(sr)], 1)
        print(cls.__name__, "energy of delayed signal", round(outs.pow(2).sum().item(), 3))
    for fn in (comb_vectorised, comb_feedforward, comb_reference):
        print(fn.__name__, round(fn(x, 23, 0.6).abs().sum().item(), 3))


if __name__ == "__main__":
    main()
