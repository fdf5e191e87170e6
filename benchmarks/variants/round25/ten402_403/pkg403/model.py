"""Causal depthwise conv that keeps its left context in a cached state tensor."""
import torch
import torch.nn as nn


class StreamingDWConv(nn.Module):
    def __init__(self, ch, k):
        super().__init__()
        self.k = k
        self.conv = nn.Conv1d(ch, ch, k, groups=ch)
        self.state = None

    def forward(self, x):
        B, C, L = x.shape
        if self.state is None:
            self.state = torch.zeros(B, C, self.k - 1 + L)
        ctx = self.k - 1
        self.state[..., :ctx] = self.state[..., L:L + ctx]  # expect: TEN403
        self.state[..., ctx:] = x  # ok
        return self.conv(self.state)


def delay_(x, d):
    """delay every channel by d samples, in place"""
    x[:, :, d:].copy_(x[:, :, :-d])  # expect: TEN403
    x[:, :, :d].zero_()
    return x
