"""RWKV-style token shift: mix each token with the previous one."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class TokenShiftInplace(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.mix = nn.Parameter(torch.rand(dim))

    def forward(self, x):
        cur = x.clone()
        x[:, 1:] = x[:, :-1]  # expect: TEN403
        x[:, 0] = 0
        return cur * self.mix + x * (1 - self.mix)


class TokenShiftPad(TokenShiftInplace):
    def forward(self, x):
        prev = F.pad(x, (0, 0, 1, -1))
        return x * self.mix + prev * (1 - self.mix)


class TokenShiftBuffer(TokenShiftInplace):
    def forward(self, x):
        prev = torch.zeros_like(x)
        prev[:, 1:] = x[:, :-1]  # ok
        return x * self.mix + prev * (1 - self.mix)


if __name__ == "__main__":
    x = torch.randn(2, 7, 6)
    for cls in (TokenShiftInplace, TokenShiftPad, TokenShiftBuffer):
        torch.manual_seed(1)
        m = cls(6)
        with torch.no_grad():
            y = m(x.clone())
        print(cls.__name__, f"{y.sum().item():.6f} {y.pow(2).mean().item():.6f}")
