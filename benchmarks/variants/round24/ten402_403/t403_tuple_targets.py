"""History of recurrent states shifted with tuple assignment."""
import torch

torch.manual_seed(0)


class StateHistory:
    def __init__(self, depth, hidden):
        self.h = torch.zeros(depth, hidden)
        self.c = torch.zeros(depth, hidden)

    def push(self, h, c):
        self.h[1:], self.c[1:] = self.h[:-1], self.c[:-1]  # expect: TEN403
        self.h[0], self.c[0] = h, c


class SafeStateHistory(StateHistory):
    def push(self, h, c):
        self.h[1:], self.c[1:] = self.h[:-1].clone(), self.c[:-1].clone()  # ok
        self.h[0], self.c[0] = h, c


class TwoBufferHistory(StateHistory):
    def push(self, h, c):
        new_h, new_c = torch.empty_like(self.h), torch.empty_like(self.c)
        new_h[1:], new_c[1:] = self.h[:-1], self.c[:-1]  # ok
        new_h[0], new_c[0] = h, c
        self.h, self.c = new_h, new_c


def run(cls):
    cell = torch.nn.LSTMCell(3, 5)
    hist = cls(4, 5)
    h = c = torch.zeros(1, 5)
    g = torch.Generator().manual_seed(0)
    with torch.no_grad():
        for _ in range(6):
            h, c = cell(torch.randn(1, 3, generator=g), (h, c))
            hist.push(h[0], c[0])
    return hist.h.sum().item(), hist.c.abs().sum().item()


if __name__ == "__main__":
    for cls in (StateHistory, SafeStateHistory, TwoBufferHistory):
        torch.manual_seed(0)
        try:
            a, b = run(cls)
            print(cls.__name__, f"{a:.6f} {b:.6f}")
        except RuntimeError as e:
            print(cls.__name__, "RuntimeError:", str(e)[:60])
