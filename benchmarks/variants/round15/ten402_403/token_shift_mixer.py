"""RWKV-style token shift in a time-mixing block, with three shift implementations."""
import torch
import torch.nn as nn

torch.manual_seed(0)


def token_shift_inplace(x):
    x[:, 1:] = x[:, :-1]  # expect: TEN403
    x[:, 0] = 0  # ok
    return x


def token_shift_cat(x):
    return torch.cat([torch.zeros_like(x[:, :1]), x[:, :-1]], dim=1)  # ok


def token_shift_buffer(x):
    shifted = torch.zeros_like(x)
    shifted[:, 1:] = x[:, :-1]  # ok
    return shifted


class TimeMix(nn.Module):
    def __init__(self, d, mode):
        super().__init__()
        self.mode = mode
        self.mix = nn.Parameter(torch.rand(d))
        self.time_shift = nn.ZeroPad2d((0, 0, 1, -1))
        self.proj = nn.Linear(d, d)

    def forward(self, x):
        if self.mode == "pad":
            xx = self.time_shift(x)  # ok
        elif self.mode == "cat":
            xx = token_shift_cat(x)
        elif self.mode == "buffer":
            xx = token_shift_buffer(x)
        else:
            xx = token_shift_inplace(x.clone())
        return self.proj(x * self.mix + xx * (1 - self.mix))


if __name__ == "__main__":
    x = torch.randn(2, 6, 8)
    outs = {}
    for mode in ("pad", "cat", "buffer", "inplace"):
        torch.manual_seed(1)
        outs[mode] = TimeMix(8, mode)(x)
    for mode, y in outs.items():
        print(mode, "matches pad:", torch.allclose(y, outs["pad"]))
