import torch
import torch.nn as nn

from . import buffers
from .buffers import History

torch.manual_seed(0)
torch.set_num_threads(1)

B, L, D = 2, 4, 3


class OnlineModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("ctx", torch.zeros(B, L, D))
        self.register_buffer("ctx_ref", torch.zeros(B, L, D))
        self.head = nn.Linear(L * D, 1)

    def observe(self, x):
        buffers.newer(self.ctx).copy_(buffers.older(self.ctx))  # expect: TEN403
        self.ctx[:, 0] = x  # ok
        buffers.push_front(self.ctx_ref, x)

    def forward(self):
        return self.head(self.ctx.flatten(1)), self.head(self.ctx_ref.flatten(1))


def main():
    model = OnlineModel()
    hist = History(B, L, D)
    raw = torch.zeros(B, L, D)
    raw_ref = torch.zeros(B, L, D)
    lag = torch.zeros(B, L, D)
    for t in range(6):
        x = torch.randn(B, D)
        model.observe(x)
        hist.advance(x)
        buffers.push_front_(raw, x)
        buffers.push_front(raw_ref, x)
        name = "lag"
        setattr(model, name, lag)
        getattr(model, name)[:, 1:] = getattr(model, name)[:, :-1]  # expect: TEN403
        getattr(model, name)[:, 0] = x  # ok
        other = torch.zeros_like(lag)  # ok
        other[:, 1:] = lag[:, :-1]  # ok
    with torch.no_grad():
        y, y_ref = model()
    print("online head gap:", (y - y_ref).abs().max().item())
    print("push_front_ vs reference:", (raw - raw_ref).abs().max().item(), "hist sum:", hist.data.sum().item())


if __name__ == "__main__":
    main()
