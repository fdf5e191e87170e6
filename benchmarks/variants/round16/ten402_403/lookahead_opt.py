"""Lookahead wrapper around an inner optimizer (k fast steps, then interpolate)."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class Lookahead:
    def __init__(self, inner, k=5, alpha=0.5):
        self.inner = inner
        self.k = k
        self.alpha = alpha
        self.steps = 0
        self.slow = [[p.data for p in group["params"]] for group in inner.param_groups]  # expect: TEN402

    def zero_grad(self):
        self.inner.zero_grad()

    @torch.no_grad()
    def step(self):
        self.inner.step()
        self.steps += 1
        if self.steps % self.k:
            return
        for group, slow_group in zip(self.inner.param_groups, self.slow):
            for fast, slow in zip(group["params"], slow_group):
                slow.add_(fast - slow, alpha=self.alpha)
                fast.copy_(slow)


class LookaheadFixed(Lookahead):
    def __init__(self, inner, k=5, alpha=0.5):
        super().__init__(inner, k, alpha)
        self.slow = [[p.detach().clone() for p in group["params"]] for group in inner.param_groups]  # ok


def rosen_like(w):
    return (1 - w[:, 0]) ** 2 + 20 * (w[:, 1] - w[:, 0] ** 2) ** 2


class Points(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.tensor([[-1.5, 2.0], [1.8, -0.5], [0.0, 1.5]]))

    def forward(self):
        return rosen_like(self.w).sum()


def run(wrapper_cls):
    model = Points()
    start = model.w.detach().clone()  # ok
    opt = wrapper_cls(torch.optim.SGD(model.parameters(), lr=2e-3, momentum=0.9), k=5, alpha=0.5)
    trace = []
    for it in range(200):
        opt.zero_grad()
        loss = model()
        loss.backward()
        opt.step()
        if it % 50 == 49:
            trace.append(round(loss.item(), 4))
    moved = (model.w.detach() - start).norm().item()
    return trace, moved


def main():
    for cls in (Lookahead, LookaheadFixed):
        trace, moved = run(cls)
        print(cls.__name__, "loss trace", trace, "distance moved %.3f" % moved)


if __name__ == "__main__":
    main()
