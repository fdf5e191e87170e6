"""Streaming causal 1-D convolution modules that keep their context in buffers."""
import torch
from torch import nn

torch.manual_seed(0)


class StreamingCausalConv(nn.Module):
    """Keeps the last (k - 1) input samples of a mono stream, (1, 1, k - 1)."""

    def __init__(self, cin, cout, k):
        super().__init__()
        self.conv = nn.Conv1d(cin, cout, k)
        self.register_buffer("ctx", torch.zeros(1, cin, k - 1))

    @torch.no_grad()
    def forward(self, frame):  # frame: (B, C, 1)
        window = torch.cat([self.ctx.expand(frame.size(0), -1, -1), frame], dim=-1)  # ok
        self.ctx = window[:1, :, 1:].clone()  # ok
        return self.conv(window)


class StreamingCausalConvInPlace(StreamingCausalConv):
    """Same, but the context is updated in place to avoid allocations."""

    @torch.no_grad()
    def forward(self, frame):
        window = torch.cat([self.ctx, frame], dim=-1)
        self.ctx[..., :-1] = self.ctx[..., 1:]  # expect: TEN403
        self.ctx[..., -1:] = frame
        return self.conv(window)


class StreamingHistoryRNN(nn.Module):
    """Keeps per-sample hidden-state history (B, T, H), newest at index 0."""

    def __init__(self, inp, hid, t):
        super().__init__()
        self.cell = nn.GRUCell(inp, hid)
        self.register_buffer("hist", torch.zeros(3, t, hid))

    @torch.no_grad()
    def forward(self, x):
        h = self.cell(x, self.hist[:, 0])
        self.hist[:, 1:] = self.hist[:, :-1]  # expect: TEN403
        self.hist[:, 0] = h
        return self.hist.mean(1)


torch.manual_seed(1)
ref = StreamingCausalConv(1, 3, 4)
inplace = StreamingCausalConvInPlace(1, 3, 4)
inplace.load_state_dict(ref.state_dict())
frames = torch.randn(6, 1, 1, 1)
outs_ref = [ref(f) for f in frames]
print("reference conv :", [round(o[0, 0, 0].item(), 4) for o in outs_ref])
try:
    outs = [inplace(f) for f in frames]
    print("in-place conv  :", [round(o[0, 0, 0].item(), 4) for o in outs])
except RuntimeError as err:
    print("in-place conv failed:", str(err).split(".")[0])

rnn = StreamingHistoryRNN(2, 8, 5)
for x in torch.randn(7, 3, 2):
    avg = rnn(x)
print("history mean   :", [round(v, 4) for v in avg[0].tolist()])
print("history[0, :, 0]:", [round(v, 4) for v in rnn.hist[0, :, 0].tolist()])
