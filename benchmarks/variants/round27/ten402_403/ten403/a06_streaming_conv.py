import torch
import torch.nn as nn

torch.manual_seed(0)


class StreamingCausalConv(nn.Module):
    """Processes one time step at a time with a (B, C, K) state buffer."""

    def __init__(self, c_in, c_out, k):
        super().__init__()
        self.conv = nn.Conv1d(c_in, c_out, k)
        self.k = k
        self.buf = None

    def reset(self, b):
        self.buf = torch.zeros(b, self.conv.in_channels, self.k)

    def _advance(self):
        self.buf[..., :-1] = self.buf[..., 1:].clone()  # ok

    def step(self, x_t):
        self._advance()
        self.buf[..., -1] = x_t  # ok
        return self.conv(self.buf)[..., 0]


class FastStreamingCausalConv(StreamingCausalConv):
    def _advance(self):
        self.buf[..., :-1] = self.buf[..., 1:]  # expect: TEN403


x = torch.randn(2, 3, 10)
for cls in (StreamingCausalConv, FastStreamingCausalConv):
    torch.manual_seed(0)
    m = cls(3, 2, 4)
    m.reset(2)
    with torch.no_grad():
        ys = torch.stack([m.step(x[..., t]) for t in range(10)], -1)
        full = m.conv(nn.functional.pad(x, (3, 0)))
    print(cls.__name__, "stream checksum %.5f" % ys.sum().item(),
          "max err vs offline %.6f" % (ys - full).abs().max().item())
