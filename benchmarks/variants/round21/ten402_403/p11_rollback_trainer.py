"""Trainer with automatic rollback: if the loss blows up, go back to the last good checkpoint
and halve the learning rate (the kind of guard used in large-scale LM training loops)."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class RollbackTrainer:
    def __init__(self, model, lr, deep=False):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=lr)
        self.deep = deep
        self._rollback_point = None
        self._rollback_step = None
        self.events = []

    def checkpoint(self, step):
        if self.deep:
            self._rollback_point = copy.deepcopy(self.model.state_dict())  # ok
        else:
            self._rollback_point = self.model.state_dict()  # expect: TEN402
        self._rollback_step = step

    def rollback(self):
        self.model.load_state_dict(self._rollback_point)
        for group in self.opt.param_groups:
            group["lr"] *= 0.5
        return self._rollback_step

    def train(self, x, y, steps, ckpt_every=10):
        last = None
        for step in range(steps):
            if step % ckpt_every == 0:
                self.checkpoint(step)
            self.opt.zero_grad()
            loss = F.mse_loss(self.model(x), y)
            if last is not None and (not torch.isfinite(loss) or loss.item() > 4 * last):
                back_to = self.rollback()
                with torch.no_grad():
                    after = F.mse_loss(self.model(x), y).item()
                self.events.append(f"step{step}: loss {loss.item():.3g} -> rollback to {back_to}, loss {after:.3g}")
                last = after
                continue
            loss.backward()
            self.opt.step()
            last = loss.item()
        return last


if __name__ == "__main__":
    g = torch.Generator().manual_seed(0)
    x = torch.randn(128, 6, generator=g) * 3
    y = x @ torch.randn(6, 1, generator=g)
    for deep in (False, True):
        torch.manual_seed(0)
        model = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 1))
        tr = RollbackTrainer(model, lr=0.05, deep=deep)
        final = tr.train(x, y, steps=80)
        print(f"deep={deep}: rollbacks={len(tr.events)} final_loss={final:.4g}")
        for e in tr.events[:3]:
            print("   ", e)
