"""Shift operations where the source view is first bound to a local name:
a hidden-state history for truncated BPTT bookkeeping and an overlap-add output buffer."""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)


class HiddenHistory:
    """hist[:, j] = hidden state from j steps ago, for a batch of sequences."""

    def __init__(self, batch, depth, clone):
        self.hist = torch.zeros(batch, depth)
        self.clone = clone

    def push(self, h):
        if self.clone:
            older = self.hist[:, :-1].clone()  # ok
            self.hist[:, 1:] = older  # ok
        else:
            older = self.hist[:, :-1]
            self.hist[:, 1:] = older  # expect: TEN403
        self.hist[:, 0] = h


class OverlapAdd:
    """Overlap-add synthesis: emit the first `hop` samples, shift the tail to the front."""

    def __init__(self, frame, hop):
        self.hop = hop
        self.acc = torch.zeros(frame)

    def add(self, frame):
        self.acc += frame
        out = self.acc[: self.hop].clone()
        tail = self.acc[self.hop:]
        try:
            self.acc[: -self.hop] = tail  # expect: TEN403
        except RuntimeError as e:
            print("    OverlapAdd:", str(e).split(".")[0])
        self.acc[-self.hop:] = 0.0
        return out


if __name__ == "__main__":
    for clone in (False, True):
        hh = HiddenHistory(2, 5, clone)
        for t in range(1, 8):
            hh.push(torch.tensor([t, 10.0 * t]))
        print(f"HiddenHistory clone={clone}: {hh.hist[1].tolist()}")
    ola = OverlapAdd(frame=8, hop=2)
    win = torch.hann_window(8, periodic=True)
    out = torch.cat([ola.add(win) for _ in range(6)])
    print("overlap-add output:", [round(v, 4) for v in out.tolist()])
