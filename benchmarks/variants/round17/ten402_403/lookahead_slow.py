"""A Lookahead-style SGD that keeps slow weights in the optimizer state."""
from functools import partial

import torch
from torch import nn

torch.manual_seed(0)
torch.set_num_threads(1)


class LookaheadSGD(torch.optim.Optimizer):
    def __init__(self, params, lr=0.1, k=4, alpha=0.5, keep_copy=True):
        super().__init__(params, dict(lr=lr, k=k, alpha=alpha))
        for group in self.param_groups:
            for p in group["params"]:
                st = self.state[p]
                st["counter"] = 0
                if keep_copy:
                    st["slow"] = p.detach().clone()  # ok
                else:
                    st["slow"] = p.data  # expect: TEN402

    @torch.no_grad()
    def step(self, closure=None):
        loss = closure() if closure is not None else None
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                p.add_(p.grad, alpha=-group["lr"])
                st = self.state[p]
                st["counter"] += 1
                if st["counter"] % group["k"] == 0:
                    slow = st["slow"]
                    slow.add_(p - slow, alpha=group["alpha"])
                    p.copy_(slow)  # ok
        return loss


OPTIMIZERS = {
    "aliasing": partial(LookaheadSGD, keep_copy=False),
    "copying": partial(LookaheadSGD, keep_copy=True),
}


def rosenbrock_like(w):
    return ((1 - w[:, 0]) ** 2 + 5 * (w[:, 1] - w[:, 0] ** 2) ** 2).sum()


def run(name):
    torch.manual_seed(0)
    layer = nn.Linear(3, 2)
    opt = OPTIMIZERS[name](layer.parameters(), lr=0.003)
    x = torch.randn(16, 3)
    for _ in range(24):
        opt.zero_grad()
        loss = rosenbrock_like(layer(x))
        loss.backward()
        opt.step()
    return loss.item()


if __name__ == "__main__":
    for n in OPTIMIZERS:
        print(n, round(run(n), 4))
