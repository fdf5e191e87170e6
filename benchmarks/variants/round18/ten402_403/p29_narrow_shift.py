"""Shifting sequence buffers with Tensor.narrow (e.g. for streaming convolutions)."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class StreamingConv1d(nn.Module):
    """Causal conv that keeps the last (kernel_size - 1) input frames between calls."""

    def __init__(self, channels, kernel_size, chunk):
        super().__init__()
        self.conv = nn.Conv1d(channels, channels, kernel_size)
        self.ctx = kernel_size - 1
        self.register_buffer("state", torch.zeros(1, channels, self.ctx + chunk))

    def forward(self, chunk):
        n = chunk.shape[-1]
        total = self.state.shape[-1]
        self.state.narrow(-1, 0, total - n).copy_(self.state.narrow(-1, n, total - n))  # expect: TEN403
        self.state.narrow(-1, total - n, n).copy_(chunk)  # ok
        return self.conv(self.state[..., total - n - self.ctx:])


class StreamingConv1dSafe(StreamingConv1d):
    def forward(self, chunk):
        n = chunk.shape[-1]
        total = self.state.shape[-1]
        kept = self.state.narrow(-1, n, total - n).clone()
        self.state.narrow(-1, 0, total - n).copy_(kept)  # ok
        self.state.narrow(-1, total - n, n).copy_(chunk)
        return self.conv(self.state[..., total - n - self.ctx:])


def offline(conv, x):
    pad = torch.zeros(1, x.shape[1], conv.ctx)
    return conv.conv(torch.cat([pad, x], -1))


if __name__ == "__main__":
    x = torch.randn(1, 3, 24)
    for cls in (StreamingConv1d, StreamingConv1dSafe):
        torch.manual_seed(0)
        m = cls(3, 7, chunk=4)
        with torch.no_grad():
            y = torch.cat([m(c) for c in x.split(4, dim=-1)], -1)
            ref = offline(m, x)
        print(cls.__name__, "max err vs offline:", (y - ref).abs().max().item())
    a = torch.arange(12.).reshape(3, 4)
    b = torch.zeros(3, 4)
    b.narrow(1, 1, 3).copy_(a.narrow(1, 0, 3))  # ok
    print(b.tolist())
