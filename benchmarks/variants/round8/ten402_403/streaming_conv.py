"""Causal 1-D convolutions that can run on a sample stream (TCN / WaveNet vocoder)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class StreamingCausalConv1d(nn.Module):
    def __init__(self, in_ch, out_ch, kernel_size, dilation=1):
        super().__init__()
        self.conv = nn.Conv1d(in_ch, out_ch, kernel_size, dilation=dilation)
        self.receptive = (kernel_size - 1) * dilation
        self.register_buffer("state", torch.zeros(1, in_ch, self.receptive), persistent=False)

    def forward(self, x):
        return self.conv(F.pad(x, (self.receptive, 0)))

    def reset_state(self):
        self.state.zero_()

    @torch.no_grad()
    def step(self, x):
        t = x.size(-1)
        full = torch.cat([self.state, x], dim=-1)  # ok
        y = self.conv(full)
        if t >= self.receptive:
            self.state.copy_(x[..., -self.receptive:])  # ok
        else:
            keep = self.receptive - t
            self.state.narrow(-1, 0, keep).copy_(self.state.narrow(-1, t, keep))  # expect: TEN403
            self.state.narrow(-1, keep, t).copy_(x)
        return y


class ResidualBlock(nn.Module):
    def __init__(self, channels, kernel_size, dilation):
        super().__init__()
        self.conv = StreamingCausalConv1d(channels, 2 * channels, kernel_size, dilation)
        self.proj = nn.Conv1d(channels, channels, 1)

    def _gate(self, h):
        a, b = h.chunk(2, dim=1)
        return torch.tanh(a) * torch.sigmoid(b)

    def forward(self, x):
        return x + self.proj(self._gate(self.conv(x)))

    def step(self, x):
        return x + self.proj(self._gate(self.conv.step(x)))


class StreamingTCN(nn.Module):
    def __init__(self, channels=64, kernel_size=3, n_layers=10):
        super().__init__()
        self.inp = nn.Conv1d(1, channels, 1)
        self.blocks = nn.ModuleList(ResidualBlock(channels, kernel_size, 2 ** i) for i in range(n_layers))
        self.out = nn.Conv1d(channels, 1, 1)

    def forward(self, x):
        h = self.inp(x)
        for b in self.blocks:
            h = b(h)
        return self.out(h)

    @torch.no_grad()
    def step(self, x):
        h = self.inp(x)
        for b in self.blocks:
            h = b.step(h)
        return self.out(h)

    def reset_state(self):
        for b in self.blocks:
            b.conv.reset_state()
