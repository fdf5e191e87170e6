"""Streaming LSTM cell that keeps a short history of (h, c) states."""
import torch
from torch import nn

torch.manual_seed(0)


class StreamingCell:
    def __init__(self, inp, hid, hist):
        self.cell = nn.LSTMCell(inp, hid)
        self.h_hist = torch.zeros(1, hist, hid)
        self.c_hist = torch.zeros(1, hist, hid)

    @torch.no_grad()
    def step(self, x):
        h, c = self.cell(x, (self.h_hist[:, -1], self.c_hist[:, -1]))
        # drop the oldest state, append the new one
        self.h_hist[:, :-1], self.c_hist[:, :-1] = self.h_hist[:, 1:], self.c_hist[:, 1:]  # expect: TEN403
        self.h_hist[:, -1], self.c_hist[:, -1] = h, c  # ok
        return h


class BatchedHistory:
    """(batch, hist) scalar traces, newest in column 0."""

    def __init__(self, batch, hist):
        self.a = torch.zeros(batch, hist)
        self.b = torch.zeros(batch, hist)

    def push(self, va, vb):
        self.a[:, 1:], self.b[:, 1:] = self.a[:, :-1], self.b[:, :-1]  # expect: TEN403
        self.a[:, 0], self.b[:, 0] = va, vb


class SafeBatchedHistory(BatchedHistory):
    def push(self, va, vb):
        self.a[:, 1:], self.b[:, 1:] = self.a[:, :-1].clone(), self.b[:, :-1].clone()  # ok
        self.a[:, 0], self.b[:, 0] = va, vb


class SwapHistory(BatchedHistory):
    """Ping-pong between two buffers: always writes from the *other* tensor."""

    def push(self, va, vb):
        self.b[:, 1:] = self.a[:, :-1]  # ok
        self.b[:, 0] = va
        self.a, self.b = self.b, self.a


sc = StreamingCell(3, 4, hist=3)
xs = torch.randn(6, 1, 3)
try:
    for x in xs:
        h = sc.step(x)
    print("last h:", [round(v, 4) for v in h[0].tolist()])
except RuntimeError as err:
    print("streaming cell failed:", str(err).split(".")[0])

for cls in (BatchedHistory, SafeBatchedHistory, SwapHistory):
    bh = cls(2, 5)
    for t in range(1, 7):
        bh.push(torch.tensor([t, -t], dtype=torch.float32), torch.tensor([10.0 * t, 0.0]))
    print(f"{cls.__name__:<19} a[0] {bh.a[0].tolist()} b[0] {bh.b[0].tolist()}")
