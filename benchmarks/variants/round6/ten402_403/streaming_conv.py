"""Streaming causal 1-D convolutions with carried-over left context.

For chunked inference (Conformer/EnCodec-style streaming), each conv keeps
the last (kernel_size - 1) * dilation input frames between calls.
"""
import torch
from torch import nn
import torch.nn.functional as F


class StreamingCausalConv1d(nn.Conv1d):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.context = (self.kernel_size[0] - 1) * self.dilation[0]
        self.state = None

    def reset(self, batch):
        self.state = torch.zeros(batch, self.in_channels, self.context)

    def forward(self, chunk):
        x = torch.cat([self.state, chunk], dim=-1)  # ok
        y = F.conv1d(x, self.weight, self.bias, dilation=self.dilation)
        self._advance(chunk)
        return y

    def _advance(self, chunk):
        t = chunk.shape[-1]
        if t >= self.context:
            self.state.copy_(chunk[..., -self.context:])
            return
        keep = self.context - t
        self.state.narrow(-1, 0, keep).copy_(self.state.narrow(-1, t, keep))  # expect: TEN403
        self.state.narrow(-1, keep, t).copy_(chunk)


class ViewShiftConv1d(StreamingCausalConv1d):
    def _advance(self, chunk):
        t = chunk.shape[-1]
        if t >= self.context:
            self.state.copy_(chunk[..., -self.context:])
            return
        dst = self.state[..., :-t]
        src = self.state[..., t:]
        dst.copy_(src)  # expect: TEN403
        self.state[..., -t:] = chunk


class PingPongConv1d(StreamingCausalConv1d):
    def _advance(self, chunk):
        t = chunk.shape[-1]
        keep = self.context - t
        if keep <= 0:
            self.state = chunk[..., -self.context:].clone()
            return
        fresh = torch.empty_like(self.state)
        fresh.narrow(-1, 0, keep).copy_(self.state.narrow(-1, t, keep))  # ok
        fresh.narrow(-1, keep, t).copy_(chunk)
        self.state = fresh


if __name__ == "__main__":
    torch.manual_seed(0)
    sig = torch.randn(1, 2, 64)
    full = StreamingCausalConv1d(2, 3, kernel_size=5, dilation=2)
    for cls in (StreamingCausalConv1d, ViewShiftConv1d, PingPongConv1d):
        conv = cls(2, 3, kernel_size=5, dilation=2)
        conv.load_state_dict(full.state_dict())  # ok
        offline = F.conv1d(F.pad(sig, (conv.context, 0)), conv.weight, conv.bias, dilation=conv.dilation)
        conv.reset(1)
        try:
            online = torch.cat([conv(sig[..., i:i + 4]) for i in range(0, 64, 4)], -1)
            print(cls.__name__, torch.allclose(online, offline, atol=1e-5))
        except RuntimeError as e:
            print(cls.__name__, "RuntimeError:", str(e)[:50])
