import torch
import torch.nn as nn

from .buffers import shift_into, shift_into_cat


class StreamingConv(nn.Module):
    def __init__(self, channels, k, use_cat=False):
        super().__init__()
        self.conv = nn.Conv1d(channels, channels, k)
        self.k = k
        self.use_cat = use_cat

    def forward_stream(self, x):
        b, c, t = x.shape
        state = torch.zeros(b, c, self.k)
        outs = []
        for i in range(t):
            if self.use_cat:
                state = shift_into_cat(state, x[:, :, i])
            else:
                state = shift_into(state, x[:, :, i])
            outs.append(self.conv(state))
        return torch.cat(outs, -1)
