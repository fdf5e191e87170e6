"""A small Keras-flavoured wrapper with get_weights / set_weights and callbacks."""
import torch
from torch import nn


class Estimator:
    def __init__(self, module, lr=0.1):
        self.model = module
        self.opt = torch.optim.SGD(module.parameters(), lr=lr)
        self.callbacks = []

    def get_weights(self):
        return self.model.state_dict()  # either

    def get_weights_copy(self):
        return {k: v.detach().clone() for k, v in self.model.state_dict().items()}  # ok

    def set_weights(self, weights):
        self.model.load_state_dict(weights)

    def evaluate(self, x, y):
        with torch.no_grad():
            return nn.functional.binary_cross_entropy_with_logits(self.model(x), y).item()

    def fit(self, x, y, xv, yv, epochs=10):
        for cb in self.callbacks:
            cb.on_train_begin(self)
        for epoch in range(epochs):
            loss = nn.functional.binary_cross_entropy_with_logits(self.model(x), y)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            logs = {"val_loss": self.evaluate(xv, yv)}
            for cb in self.callbacks:
                cb.on_epoch_end(self, epoch, logs)
        for cb in self.callbacks:
            cb.on_train_end(self)


class RestoreBest:
    def on_train_begin(self, est):
        self.best, self.weights, self.epoch = float("inf"), None, -1

    def on_epoch_end(self, est, epoch, logs):
        if logs["val_loss"] < self.best:
            self.best, self.epoch = logs["val_loss"], epoch
            self.weights = est.get_weights()  # expect: TEN402

    def on_train_end(self, est):
        est.set_weights(self.weights)


class RestoreBestCopy(RestoreBest):
    def on_epoch_end(self, est, epoch, logs):
        if logs["val_loss"] < self.best:
            self.best, self.epoch = logs["val_loss"], epoch
            self.weights = est.get_weights_copy()  # ok


class WeightNormLogger:
    def on_train_begin(self, est):
        self.norms = []

    def on_epoch_end(self, est, epoch, logs):
        w = est.get_weights()  # ok
        self.norms.append(sum(v.float().norm().item() for v in w.values()))

    def on_train_end(self, est):
        pass


if __name__ == "__main__":
    for cb_cls in (RestoreBest, RestoreBestCopy):
        torch.manual_seed(0)
        x, xv = torch.randn(64, 5), torch.randn(64, 5)
        y, yv = (x[:, :1] > 0).float(), (torch.rand(64, 1) > 0.5).float()
        est = Estimator(nn.Linear(5, 1), lr=0.5)
        restore, logger = cb_cls(), WeightNormLogger()
        est.callbacks = [restore, logger]
        est.fit(x, y, xv, yv, epochs=12)
        print(f"{cb_cls.__name__}: best epoch {restore.epoch} val {restore.best:.4f} -> restored val {est.evaluate(xv, yv):.4f}")
