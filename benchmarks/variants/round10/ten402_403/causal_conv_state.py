"""Dilated causal convolutions for sample-by-sample autoregressive audio generation (fast WaveNet)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalConv1d(nn.Conv1d):
    def __init__(self, in_ch, out_ch, kernel_size=3, dilation=1):
        super().__init__(in_ch, out_ch, kernel_size, dilation=dilation)
        self.context = (kernel_size - 1) * dilation

    def forward(self, x):
        return super().forward(F.pad(x, (self.context, 0)))


class IncrementalCausalConv1d(nn.Module):
    """Wraps a trained CausalConv1d and keeps its receptive field in a fixed-size input queue."""

    def __init__(self, conv: CausalConv1d, batch_size: int = 1):
        super().__init__()
        self.conv = conv
        self.register_buffer("queue", torch.zeros(batch_size, conv.in_channels, conv.context + 1),
                             persistent=False)

    def reset(self):
        self.queue.zero_()

    def forward(self, x):
        # x: (B, C, 1), one new sample
        self.queue[..., :-1].copy_(self.queue[..., 1:])  # expect: TEN403
        self.queue[..., -1:].copy_(x)
        return F.conv1d(self.queue, self.conv.weight, self.conv.bias, dilation=self.conv.dilation)


class ChunkedCausalConv1d(nn.Module):
    """Same computation for chunked streaming; the state is rebuilt every call."""

    def __init__(self, conv: CausalConv1d):
        super().__init__()
        self.conv = conv
        self.state = None

    def forward(self, x):
        if self.state is None:
            self.state = x.new_zeros(x.shape[0], x.shape[1], self.conv.context)
        full = torch.cat([self.state, x], dim=-1)  # ok
        self.state = full[..., full.shape[-1] - self.conv.context:]
        return F.conv1d(full, self.conv.weight, self.conv.bias, dilation=self.conv.dilation)
