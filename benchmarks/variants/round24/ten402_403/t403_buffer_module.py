"""nn.Module keeping a history buffer of recent batch statistics (register_buffer)."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class StatHistory(nn.Module):
    def __init__(self, depth, dim):
        super().__init__()
        self.register_buffer("hist", torch.zeros(depth))
        self.register_buffer("hist2", torch.zeros(dim, depth))

    @torch.no_grad()
    def record(self, x):
        self.hist.data[1:] = self.hist.data[:-1]  # expect: TEN403
        self.hist[0] = x.mean()

    @torch.no_grad()
    def record_vec(self, x):
        self.hist2[:, 1:] = self.hist2[:, :-1].clone()  # ok
        self.hist2[:, 0] = x.mean(0)

    @torch.no_grad()
    def record_vec_inplace(self, x):
        self.hist2[:, 1:] = self.hist2[:, :-1]  # expect: TEN403
        self.hist2[:, 0] = x.mean(0)


if __name__ == "__main__":
    data = [torch.randn(8, 3) + i for i in range(5)]
    m = StatHistory(4, 3)
    try:
        for x in data:
            m.record(x)
        print("hist", [round(v, 5) for v in m.hist.tolist()])
    except RuntimeError as e:
        print("hist", "RuntimeError:", str(e)[:60])
    for fn in ("record_vec", "record_vec_inplace"):
        m = StatHistory(4, 3)
        for x in data:
            getattr(m, fn)(x)
        print(fn, [round(v, 5) for v in m.hist2.sum(0).tolist()])
