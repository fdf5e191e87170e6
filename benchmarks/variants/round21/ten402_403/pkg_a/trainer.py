import torch
import torch.nn.functional as F

from .ckpt import restore, safe_snapshot, snapshot


class Trainer:
    def __init__(self, model, safe, lr=2e-2, patience=6):
        self.model = model
        self.safe = safe
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)
        self.patience = patience
        self.best_val = float("inf")
        self.best_state = None

    def _val(self, val):
        with torch.no_grad():
            return F.mse_loss(self.model(val[0]), val[1]).item()

    def fit(self, train, val, epochs=150):
        bad = 0
        for epoch in range(epochs):
            self.opt.zero_grad()
            F.mse_loss(self.model(train[0]), train[1]).backward()
            self.opt.step()
            v = self._val(val)
            if v < self.best_val:
                self.best_val, bad = v, 0
                if self.safe:
                    self.best_state = safe_snapshot(self.model)  # ok
                else:
                    self.best_state = snapshot(self.model)  # either: TEN402
            else:
                bad += 1
                if bad >= self.patience:
                    break
        last = self._val(val)
        restore(self.model, self.best_state)
        return epoch, last, self._val(val)
