import torch
import torch.nn as nn

torch.manual_seed(0)


class TimeMix(nn.Module):
    """RWKV-style token shift: mixes each token with the previous one."""

    def __init__(self, d):
        super().__init__()
        self.mix = nn.Parameter(torch.rand(d))
        self.proj = nn.Linear(d, d)

    def shift(self, x):
        prev = x.detach().clone()
        prev[:, 1:, :] = prev[:, :-1, :]  # expect: TEN403
        prev[:, 0, :] = 0  # ok
        return prev

    def forward(self, x):
        xx = self.shift(x)
        return self.proj(x * self.mix + xx * (1 - self.mix))


class TimeMixPad(TimeMix):
    def __init__(self, d):
        super().__init__(d)
        self.pad = nn.ZeroPad2d((0, 0, 1, -1))

    def shift(self, x):
        return self.pad(x)  # ok


class TimeMixCopy(TimeMix):
    def shift(self, x):
        prev = torch.zeros_like(x)
        prev[:, 1:, :] = x[:, :-1, :]  # ok
        return prev


x = torch.randn(2, 7, 5)
for cls in (TimeMix, TimeMixPad, TimeMixCopy):
    torch.manual_seed(3)
    m = cls(5)
    with torch.no_grad():
        print(cls.__name__, round(m(x).sum().item(), 4), [round(v, 4) for v in m.shift(x)[0, :, 0].tolist()])
