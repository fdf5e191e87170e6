"""Lag features for streaming multivariate series."""
import numpy as np
import torch


class LagBuffer:
    def __init__(self, n_series, length, lag):
        self.buf = torch.zeros(n_series, length)
        self.lag = lag

    def update(self, block):
        L, lag = self.buf.shape[1], self.lag
        self.buf.narrow(dim=1, start=0, length=L - lag).copy_(self.buf.narrow(dim=1, start=lag, length=L - lag))  # expect: TEN403
        self.buf[:, L - lag:] = block
        return self.buf


class DelayTaps:
    def __init__(self, n_series, taps):
        self.buf = torch.zeros(n_series, taps)

    def update(self, sample):
        torch.Tensor.copy_(self.buf[:, 1:], self.buf[:, :-1])  # expect: TEN403
        self.buf[:, 0] = sample
        return self.buf


class LagBufferSafe(LagBuffer):
    def update(self, block):
        L, lag = self.buf.shape[1], self.lag
        self.buf = torch.cat([self.buf[:, lag:], block], dim=1)  # ok
        return self.buf


class LagBufferNumpy:
    def __init__(self, n_series, length, lag):
        self.buf = np.zeros((n_series, length), np.float32)
        self.lag = lag

    def update(self, block):
        L, lag = self.buf.shape[1], self.lag
        self.buf[:, :L - lag] = self.buf[:, lag:]  # ok
        self.buf[:, L - lag:] = block.numpy()
        return torch.from_numpy(self.buf)
