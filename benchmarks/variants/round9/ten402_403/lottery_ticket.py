"""Iterative magnitude pruning with late rewinding (Frankle et al., 2019)."""
import copy

import torch
import torch.nn as nn


class IMP:
    def __init__(self, model, prune_rate=0.2, rewind_iteration=500, layer_types=(nn.Linear, nn.Conv2d)):
        self.model = model
        self.prune_rate = prune_rate
        self.rewind_iteration = rewind_iteration
        self.targets = [(name, m) for name, m in model.named_modules() if isinstance(m, layer_types)]
        self.masks = {name: torch.ones_like(m.weight) for name, m in self.targets}
        self.theta_init = copy.deepcopy(model.state_dict())  # ok
        self.theta_k = None

    def after_step(self, iteration):
        """Call after every optimizer step."""
        self.apply_masks()
        if iteration == self.rewind_iteration and self.theta_k is None:
            self.theta_k = dict(self.model.state_dict())  # expect: TEN402

    @torch.no_grad()
    def apply_masks(self):
        for name, m in self.targets:
            m.weight.mul_(self.masks[name])

    @torch.no_grad()
    def prune(self):
        """Global magnitude pruning of ``prune_rate`` of the remaining weights."""
        alive = torch.cat([m.weight[self.masks[name].bool()].abs().flatten() for name, m in self.targets])
        k = int(self.prune_rate * alive.numel())
        if k == 0:
            return
        threshold = alive.kthvalue(k).values
        for name, m in self.targets:
            self.masks[name] = (m.weight.abs() > threshold).float() * self.masks[name]

    def rewind(self):
        source = self.theta_k if self.theta_k is not None else self.theta_init
        self.model.load_state_dict(source)
        self.apply_masks()

    def sparsity(self):
        total = sum(m.numel() for m in self.masks.values())
        zeros = sum((m == 0).sum().item() for m in self.masks.values())
        return zeros / total


def run_imp(model, train_fn, eval_fn, rounds=10, **kw):
    """``train_fn(model, callback)`` trains to completion and calls ``callback(iteration)`` after each step."""
    imp = IMP(model, **kw)
    results = []
    for r in range(rounds):
        train_fn(model, callback=imp.after_step)
        acc = eval_fn(model)
        results.append({"round": r, "sparsity": imp.sparsity(), "acc": acc})
        print(f"round {r}: sparsity {imp.sparsity():.3f}  acc {acc:.4f}")
        imp.prune()
        imp.rewind()
    return results
