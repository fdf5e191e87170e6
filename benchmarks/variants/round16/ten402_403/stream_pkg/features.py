import torch
import torch.nn as nn


def pre_emphasis(frame, coef=0.97):
    out = frame.clone()
    out[:, 1:] -= coef * out[:, :-1]  # ok
    return out


def pre_emphasis_fast(frame, coef=0.97):
    out = frame.clone()
    out[:, 1:].sub_(out[:, :-1], alpha=coef)  # expect: TEN403
    return out


class LogPower(nn.Module):
    def __init__(self, n_fft):
        super().__init__()
        self.register_buffer("window", torch.hann_window(n_fft))
        self.register_buffer("running_mean", torch.zeros(n_fft // 2 + 1))
        self.register_buffer("count", torch.zeros(()))

    def forward(self, frame):
        spec = torch.fft.rfft(frame * self.window).abs().pow(2).add(1e-8).log()
        with torch.no_grad():
            self.count += 1
            self.running_mean += (spec.mean(0) - self.running_mean) / self.count
        return spec - self.running_mean
