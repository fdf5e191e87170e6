"""A small Keras-like trainer with callbacks dispatched by name."""
import torch
from torch import nn

torch.manual_seed(0)
torch.set_num_threads(1)


class Callback:
    def on_train_begin(self, trainer):
        pass

    def on_epoch_end(self, trainer):
        pass

    def on_train_end(self, trainer):
        pass


class BestWeights(Callback):
    def __init__(self):
        self.best = float("inf")
        self.snapshot = None

    def on_epoch_end(self, trainer):
        if trainer.logs["val"] < self.best:
            self.best = trainer.logs["val"]
            self.snapshot = getattr(trainer.model, "state_dict")()  # expect: TEN402

    def on_train_end(self, trainer):
        trainer.model.load_state_dict(self.snapshot)


class SafeBestWeights(BestWeights):
    def on_epoch_end(self, trainer):
        if trainer.logs["val"] < self.best:
            self.best = trainer.logs["val"]
            self.snapshot = {k: t.detach().clone() for k, t in trainer.model.state_dict().items()}  # ok


class NormLogger(Callback):
    def on_train_begin(self, trainer):
        self.rows = []

    def on_epoch_end(self, trainer):
        self.rows.append({k: v.norm().item() for k, v in trainer.model.state_dict().items()})  # ok


class Trainer:
    def __init__(self, model, callbacks, lr=0.05):
        self.model = model
        self.callbacks = callbacks
        self.opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
        self.logs = {}

    def fire(self, event):
        for cb in self.callbacks:
            getattr(cb, "on_" + event)(self)

    def fit(self, data, val, epochs):
        self.fire("train_begin")
        x, y = data
        for _ in range(epochs):
            for i in range(0, len(x), 16):
                self.opt.zero_grad()
                nn.functional.mse_loss(self.model(x[i:i + 16]), y[i:i + 16]).backward()
                self.opt.step()
            with torch.no_grad():
                self.logs["val"] = nn.functional.mse_loss(self.model(val[0]), val[1]).item()
            self.fire("epoch_end")
        self.fire("train_end")


def main():
    g = torch.Generator().manual_seed(0)
    x = torch.randn(48, 3, generator=g)
    y = torch.sin(2 * x[:, :1]) + 0.8 * torch.randn(48, 1, generator=g)
    xv = torch.randn(48, 3, generator=g)
    yv = torch.sin(2 * xv[:, :1])
    for cls in (BestWeights, SafeBestWeights):
        torch.manual_seed(0)
        model = nn.Sequential(nn.Linear(3, 64), nn.ReLU(), nn.Linear(64, 1))
        best_cb, logger = cls(), NormLogger()
        Trainer(model, [best_cb, logger]).fit((x, y), (xv, yv), epochs=30)
        with torch.no_grad():
            final = nn.functional.mse_loss(model(xv), yv).item()
        print(f"{cls.__name__}: best val {best_cb.best:.4f}, val after restore {final:.4f}, logged {len(logger.rows)}")


if __name__ == "__main__":
    main()
