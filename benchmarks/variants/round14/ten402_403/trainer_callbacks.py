"""Lightning-style hook callbacks driven by a minimal trainer loop."""
import copy

import torch
from torch import nn


class Callback:
    def on_fit_start(self, trainer): ...
    def on_validation_end(self, trainer, metric): ...
    def on_epoch_end(self, trainer, epoch): ...
    def on_fit_end(self, trainer): ...


class BestWeights(Callback):
    def __init__(self):
        self.best_metric = float("inf")
        self.best = None

    def on_validation_end(self, trainer, metric):
        if metric < self.best_metric:
            self.best_metric = metric
            self.best = copy.copy(trainer.model.state_dict())  # expect: TEN402

    def on_fit_end(self, trainer):
        trainer.model.load_state_dict(self.best)


class AnchorDrift(Callback):
    """Logs how far the weights have moved from where fitting started."""

    def on_fit_start(self, trainer):
        self.initial = copy.deepcopy(trainer.model.state_dict())  # ok

    def on_epoch_end(self, trainer, epoch):
        sd = trainer.model.state_dict()  # ok
        trainer.log["drift"] = sum((sd[k] - self.initial[k]).norm().item() for k in sd)


class WeightAverage(Callback):
    def __init__(self, start_epoch, cloned=False):
        self.start_epoch, self.cloned, self.n, self.avg = start_epoch, cloned, 0, None

    def on_epoch_end(self, trainer, epoch):
        sd = trainer.model.state_dict()
        if epoch == self.start_epoch:
            if self.cloned:
                self.avg = {k: v.clone() for k, v in sd.items()}  # ok
            else:
                self.avg = sd.copy()  # expect: TEN402
            self.n = 1
        elif epoch > self.start_epoch:
            self.avg = {k: (self.avg[k] * self.n + sd[k]) / (self.n + 1) for k in sd}
            self.n += 1


class Trainer:
    def __init__(self, model, callbacks, epochs=8):
        self.model, self.callbacks, self.epochs, self.log = model, callbacks, epochs, {}

    def fit(self, x, y, xv, yv):
        opt = torch.optim.SGD(self.model.parameters(), lr=0.4)
        for cb in self.callbacks:
            cb.on_fit_start(self)
        for epoch in range(self.epochs):
            loss = nn.functional.mse_loss(self.model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            with torch.no_grad():
                metric = nn.functional.mse_loss(self.model(xv), yv).item()
            for cb in self.callbacks:
                cb.on_validation_end(self, metric)
                cb.on_epoch_end(self, epoch)
        for cb in self.callbacks:
            cb.on_fit_end(self)


if __name__ == "__main__":
    torch.manual_seed(0)
    x, y, xv, yv = torch.randn(64, 3), torch.randn(64, 1), torch.randn(32, 3), torch.randn(32, 1)
    best, drift = BestWeights(), AnchorDrift()
    avg_live, avg_copy = WeightAverage(2), WeightAverage(2, cloned=True)
    model = nn.Linear(3, 1)
    trainer = Trainer(model, [avg_live, avg_copy, drift, best])
    trainer.fit(x, y, xv, yv)
    with torch.no_grad():
        print("best metric", round(best.best_metric, 4), "after restore", round(nn.functional.mse_loss(model(xv), yv).item(), 4))
    gap = sum((avg_live.avg[k] - avg_copy.avg[k]).abs().sum().item() for k in avg_copy.avg)
    print("drift logged", round(trainer.log["drift"], 4), "swa disagreement", round(gap, 6))
