"""Temporal Shift Module (TSM) variants for video backbones."""
import torch
import torch.nn as nn


def shift_out_of_place(x, n_segment, fold_div=8):
    nt, c, h, w = x.size()
    x = x.view(nt // n_segment, n_segment, c, h, w)
    fold = c // fold_div
    out = torch.zeros_like(x)
    out[:, :-1, :fold] = x[:, 1:, :fold]  # ok
    out[:, 1:, fold:2 * fold] = x[:, :-1, fold:2 * fold]  # ok
    out[:, :, 2 * fold:] = x[:, :, 2 * fold:]  # ok
    return out.view(nt, c, h, w)


def shift_inplace_naive(x, n_segment, fold_div=8):
    """'Memory-saving' in-place shift: reads slices it has already overwritten."""
    nt, c, h, w = x.size()
    x = x.view(nt // n_segment, n_segment, c, h, w)
    fold = c // fold_div
    x[:, 1:, fold:2 * fold] = x[:, :-1, fold:2 * fold]  # expect: TEN403
    x[:, :-1, :fold] = x[:, 1:, :fold]  # expect: TEN403
    x[:, 0, fold:2 * fold] = 0
    x[:, -1, :fold] = 0
    return x.view(nt, c, h, w)


def shift_inplace_fixed(x, n_segment, fold_div=8):
    nt, c, h, w = x.size()
    x = x.view(nt // n_segment, n_segment, c, h, w)
    fold = c // fold_div
    x[:, 1:, fold:2 * fold] = x[:, :-1, fold:2 * fold].clone()  # ok
    x[:, :-1, :fold] = x[:, 1:, :fold].clone()  # ok
    x[:, 0, fold:2 * fold] = 0
    x[:, -1, :fold] = 0
    return x.view(nt, c, h, w)


class TemporalShift(nn.Module):
    def __init__(self, net, n_segment=4, n_div=8):
        super().__init__()
        self.net, self.n_segment, self.fold_div = net, n_segment, n_div

    def forward(self, x):
        nt, c, h, w = x.shape
        v = x.reshape(nt // self.n_segment, self.n_segment, c, h, w)
        fold = c // self.fold_div
        buf = torch.zeros_like(v[:, :, :fold])
        buf[:, 1:] = v[:, :-1, :fold]  # ok
        v[:, :, :fold] = buf  # ok
        return self.net(x)


def shift_channels_last(x: torch.Tensor, n_segment: int) -> torch.Tensor:
    """(n, t, h, w, c) layout: shift a channel group forward along time."""
    fold = x.shape[-1] // 4
    x[:, 1:, ..., :fold] = x[:, :-1, ..., :fold]  # expect: TEN403
    return x


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(16, 16, 3, 3)
    ref = shift_inplace_fixed(x.clone(), 8)
    try:
        got = shift_inplace_naive(x.clone(), 8)
        print("naive TSM wrong elems:", (got != ref).sum().item())
    except RuntimeError as e:
        print("naive TSM raised:", str(e)[:60])
    print("out-of-place equals fixed:", torch.equal(shift_out_of_place(x.clone(), 8), ref))
    y = torch.randn(2, 6, 3, 3, 8)
    ref2 = y.clone(); ref2[:, 1:, ..., :2] = y[:, :-1, ..., :2].clone()
    try:
        print("channels-last wrong:", (shift_channels_last(y.clone(), 6) != ref2).sum().item())
    except RuntimeError as e:
        print("channels-last raised:", str(e)[:60])
