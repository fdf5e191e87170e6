"""Iterative magnitude pruning with weight rewinding (lottery ticket style).

Structure follows open-source LTH reimplementations: train, prune the
smallest weights globally, rewind the survivors to an early iterate, repeat.
"""
import torch
from torch import nn


class IterativePruner:
    def __init__(self, model, prune_fraction=0.2, rewind_iter=5):
        self.model = model
        self.prune_fraction = prune_fraction
        self.rewind_iter = rewind_iter
        self.masks = {n: torch.ones_like(p) for n, p in model.named_parameters() if p.dim() > 1}
        self.init_state = {k: v.detach().clone() for k, v in model.state_dict().items()}  # ok
        self.rewind_state = None

    def maybe_capture_rewind_point(self, iteration):
        if iteration == self.rewind_iter and self.rewind_state is None:
            self.rewind_state = {k: v.detach() for k, v in self.model.state_dict().items()}  # expect: TEN402

    @torch.no_grad()
    def apply_masks(self):
        for n, p in self.model.named_parameters():
            if n in self.masks:
                p.mul_(self.masks[n])

    @torch.no_grad()
    def prune(self):
        alive = torch.cat([p[self.masks[n].bool()].abs().flatten()
                           for n, p in self.model.named_parameters() if n in self.masks])
        k = int(self.prune_fraction * alive.numel())
        threshold = alive.kthvalue(k).values if k > 0 else alive.min() - 1
        for n, p in self.model.named_parameters():
            if n in self.masks:
                self.masks[n] = self.masks[n] * (p.abs() > threshold).float()

    def rewind(self):
        state = self.rewind_state if self.rewind_state is not None else self.init_state
        self.model.load_state_dict(state)
        self.apply_masks()


def train(model, pruner, data, iters=30, lr=0.1):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    x, y = data
    for it in range(iters):
        pruner.maybe_capture_rewind_point(it)
        opt.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        opt.step()
        pruner.apply_masks()


if __name__ == "__main__":
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(12, 24), nn.ReLU(), nn.Linear(24, 4))
    data = (torch.randn(50, 12), torch.randint(0, 4, (50,)))
    pruner = IterativePruner(net)
    for rnd in range(3):
        train(net, pruner, data)
        pruner.prune()
        trained = net[0].weight.detach().clone()
        pruner.rewind()
        print("round", rnd, "rewind changed weights:", not torch.equal(trained, net[0].weight))
