"""Temporal Shift Module (Lin et al., 2019) for 8-segment video clips."""
import torch
import torch.nn as nn

N_SEGMENT = 8


def tsm_out_of_place(x: torch.Tensor, fold_div: int = 8) -> torch.Tensor:
    """x: (n * N_SEGMENT, c, h, w)."""
    nt, c, h, w = x.shape
    x = x.view(nt // N_SEGMENT, N_SEGMENT, c, h, w)
    fold = c // fold_div
    out = torch.zeros_like(x)
    out[:, :-1, :fold] = x[:, 1:, :fold]  # ok
    out[:, 1:, fold:2 * fold] = x[:, :-1, fold:2 * fold]  # ok
    out[:, :, 2 * fold:] = x[:, :, 2 * fold:]
    return out.view(nt, c, h, w)


def tsm_inplace(x: torch.Tensor, fold_div: int = 8) -> torch.Tensor:
    """Memory-saving variant used at inference time."""
    nt, c, h, w = x.shape
    x = x.view(nt // N_SEGMENT, N_SEGMENT, c, h, w)
    fold = c // fold_div
    x[:, :-1, :fold] = x[:, 1:, :fold]  # expect: TEN403
    x[:, -1, :fold] = 0
    x[:, 1:, fold:2 * fold] = x[:, :-1, fold:2 * fold]  # expect: TEN403
    x[:, 0, fold:2 * fold] = 0
    return x.view(nt, c, h, w)


class _InplaceShift(torch.autograd.Function):
    """Shift with an explicit temporary buffer, as in the reference code."""

    @staticmethod
    def forward(ctx, x, fold):
        ctx.fold = fold
        n, t, c, h, w = x.size()
        buffer = x.new_zeros(n, t, fold, h, w)
        buffer[:, :-1] = x.data[:, 1:, :fold]  # ok
        x.data[:, :, :fold] = buffer
        buffer.zero_()
        buffer[:, 1:] = x.data[:, :-1, fold:2 * fold]
        x.data[:, :, fold:2 * fold] = buffer  # ok
        return x

    @staticmethod
    def backward(ctx, grad_output):
        fold = ctx.fold
        n, t, c, h, w = grad_output.size()
        buffer = grad_output.new_zeros(n, t, fold, h, w)
        buffer[:, 1:] = grad_output.data[:, :-1, :fold]
        grad_output.data[:, :, :fold] = buffer
        buffer.zero_()
        buffer[:, :-1] = grad_output.data[:, 1:, fold:2 * fold]
        grad_output.data[:, :, fold:2 * fold] = buffer
        return grad_output, None


class TemporalShift(nn.Module):
    def __init__(self, net: nn.Module, fold_div: int = 8, inplace: bool = False):
        super().__init__()
        self.net = net
        self.fold_div = fold_div
        self.inplace = inplace

    def forward(self, x):
        if self.inplace:
            nt, c, h, w = x.shape
            x5 = x.view(nt // N_SEGMENT, N_SEGMENT, c, h, w)
            x = _InplaceShift.apply(x5, c // self.fold_div).view(nt, c, h, w)
        else:
            x = tsm_out_of_place(x, self.fold_div)
        return self.net(x)
