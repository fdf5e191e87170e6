"""Driver for iterative magnitude pruning with rewinding to an early iteration."""
import itertools

import torch
import torch.nn.functional as F

from .masks import apply_masks, global_magnitude_masks, sparsity
from .rewind import distance, frozen_copy, restore, rewind_point


class IterativePruner:
    def __init__(self, model, train_loader, lr=0.1, rewind_iter=500, rate=0.2, device="cuda"):
        self.model = model.to(device)
        self.train_loader = train_loader
        self.lr = lr
        self.rewind_iter = rewind_iter
        self.rate = rate
        self.device = device
        self.masks = None
        self.rewind_params = None
        self.init_params = frozen_copy(self.model)  # ok

    def train(self, iters):
        opt = torch.optim.SGD(self.model.parameters(), lr=self.lr, momentum=0.9, weight_decay=1e-4)
        sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=self.lr, total_steps=iters)
        self.model.train()
        batches = itertools.cycle(self.train_loader)
        for it in range(iters):
            if it == self.rewind_iter and self.rewind_params is None:
                self.rewind_params = rewind_point(self.model)  # expect: TEN402
            x, y = next(batches)
            loss = F.cross_entropy(self.model(x.to(self.device)), y.to(self.device))
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            if self.masks is not None:
                apply_masks(self.model, self.masks)

    def prune_round(self):
        self.masks = global_magnitude_masks(self.model, self.masks, self.rate)
        restore(self.model, self.rewind_params)
        apply_masks(self.model, self.masks)

    def run(self, rounds, iters_per_round):
        for r in range(rounds):
            self.train(iters_per_round)
            print(f"round {r}: sparsity={sparsity(self.masks) if self.masks else 0.0:.3f} "
                  f"dist_from_init={distance(self.model, self.init_params):.2f}")
            self.prune_round()
        self.train(iters_per_round)
        return self.model, self.masks
