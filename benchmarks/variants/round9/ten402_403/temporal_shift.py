"""Temporal Shift Module (Lin et al., 2019): move a fraction of the channels one step
forward/backward in time so a 2D CNN can mix information across frames."""
import torch
import torch.nn as nn


def temporal_shift(x, n_segment, fold_div=8):
    nt, c, h, w = x.size()
    x = x.view(nt // n_segment, n_segment, c, h, w)
    fold = c // fold_div
    out = torch.zeros_like(x)
    out[:, :-1, :fold] = x[:, 1:, :fold]  # ok
    out[:, 1:, fold:2 * fold] = x[:, :-1, fold:2 * fold]  # ok
    out[:, :, 2 * fold:] = x[:, :, 2 * fold:]
    return out.view(nt, c, h, w)


def temporal_shift_inplace_(x, n_segment, fold_div=8):
    """Same as :func:`temporal_shift` without allocating a second activation buffer (inference only)."""
    nt, c, h, w = x.size()
    v = x.view(nt // n_segment, n_segment, c, h, w)
    fold = c // fold_div
    v[:, :-1, :fold] = v[:, 1:, :fold]  # expect: TEN403
    v[:, -1, :fold] = 0
    v[:, 1:, fold:2 * fold] = v[:, :-1, fold:2 * fold].clone()  # ok
    v[:, 0, fold:2 * fold] = 0
    return x


class TemporalShift(nn.Module):
    def __init__(self, net, n_segment=8, n_div=8, inplace=False):
        super().__init__()
        self.net = net
        self.n_segment = n_segment
        self.fold_div = n_div
        self.inplace = inplace

    def forward(self, x):
        if self.inplace and not self.training:
            x = temporal_shift_inplace_(x, self.n_segment, self.fold_div)
        else:
            x = temporal_shift(x, self.n_segment, self.fold_div)
        return self.net(x)
