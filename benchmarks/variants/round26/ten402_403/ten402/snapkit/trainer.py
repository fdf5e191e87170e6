import copy

import torch
import torch.nn.functional as F


class Trainer:
    def __init__(self, model, callbacks=(), lr=0.05):
        self.model = model
        self.callbacks = list(callbacks)
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)
        self.rollbacks = 0

    def _val(self, x, y):
        with torch.no_grad():
            return F.cross_entropy(self.model(x), y).item()

    def fit(self, xtr, ytr, xva, yva, epochs):
        initial = self.model.state_dict()  # ok
        print(f"initial weight norm {sum(v.norm() for v in initial.values()).item():.6f}")
        for cb in self.callbacks:
            cb.on_begin(self)
        prev_loss = None
        for ep in range(epochs):
            prev_state = copy.deepcopy(self.model.state_dict())  # ok
            prev_opt = copy.copy(self.opt.state_dict())  # expect: TEN402
            self.opt.zero_grad()
            loss = F.cross_entropy(self.model(xtr), ytr)
            loss.backward()
            self.opt.step()
            cur = self._val(xtr, ytr)
            if prev_loss is not None and cur > 1.02 * prev_loss:
                self.model.load_state_dict(prev_state)
                self.opt.load_state_dict(prev_opt)
                for g in self.opt.param_groups:
                    g["lr"] *= 0.5
                self.rollbacks += 1
                cur = self._val(xtr, ytr)
            prev_loss = cur
            v = self._val(xva, yva)
            for cb in self.callbacks:
                cb.on_epoch(self, ep, v)
        return prev_loss
