import torch

from .losses import compute_losses, evaluate, evaluate_safe, to_scalars
from .metrics import History, accumulate


class Trainer:
    def __init__(self, model, optimizer, history=None):
        self.model = model
        self.optimizer = optimizer
        self.history = history if history is not None else History()
        self.clean = History()
        self.store = {}
        self.val_curve = []
        self.val_curve_ok = []

    def fit(self, train, val, epochs):
        for epoch in range(epochs):
            for batch in train:
                losses = compute_losses(self.model, batch)
                total = losses["ce"] - 0.01 * losses["entropy"]
                self.optimizer.zero_grad()
                total.backward()
                self.optimizer.step()
                self.history.record(**losses)  # expect: TEN501
                self.clean.record(**to_scalars(losses))  # ok
                accumulate(self.store, "total", total)  # expect: TEN501
                accumulate(self.store, "total_item", total.item())  # ok
                accumulate(self.store, "steps", 1)  # ok
            self.val_curve.append(evaluate(self.model, val))  # expect: TEN501
            self.val_curve_ok.append(evaluate_safe(self.model, val))  # ok
            with torch.no_grad():
                self.clean.record(val=evaluate(self.model, val))  # ok
        return self
