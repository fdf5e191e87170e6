"""Keras/Lightning-style EarlyStopping callback with restore_best_weights."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class Callback:
    def on_epoch_end(self, trainer, epoch, logs):
        pass

    def on_train_end(self, trainer):
        pass


class EarlyStopping(Callback):
    def __init__(self, patience=2, restore_best_weights=True):
        self.patience = patience
        self.restore_best_weights = restore_best_weights
        self.best = float("inf")
        self.wait = 0
        self.best_weights = None
        self.last_weights = None

    def on_epoch_end(self, trainer, epoch, logs):
        sd = trainer.model.state_dict()
        self.last_weights = {k: v.detach().clone() for k, v in sd.items()}  # ok
        if logs["val_loss"] < self.best:
            self.best = logs["val_loss"]
            self.wait = 0
            self.best_weights = {k: v for k, v in sd.items()}  # expect: TEN402
        else:
            self.wait += 1
            if self.wait >= self.patience:
                trainer.stop_training = True

    def on_train_end(self, trainer):
        if self.restore_best_weights and self.best_weights is not None:
            trainer.model.load_state_dict(self.best_weights)


class LastWeightsLogger(Callback):
    """Runs before EarlyStopping: distance of the weights from last epoch's copy."""

    def __init__(self, es):
        self.es = es
        self.drift = []

    def on_epoch_end(self, trainer, epoch, logs):
        es = self.es
        if es.last_weights is None:
            return
        cur = trainer.model.state_dict()
        self.drift.append(sum((cur[k] - es.last_weights[k]).abs().sum().item() for k in cur))


class Trainer:
    def __init__(self, model, callbacks):
        self.model = model
        self.callbacks = callbacks
        self.stop_training = False
        self.opt = torch.optim.Adam(model.parameters(), lr=0.05)

    def fit(self, x, y, xv, yv, epochs=30):
        for epoch in range(epochs):
            loss = nn.functional.cross_entropy(self.model(x), y)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            with torch.no_grad():
                val = nn.functional.cross_entropy(self.model(xv), yv).item()
            for cb in self.callbacks:
                cb.on_epoch_end(self, epoch, {"val_loss": val})
            if self.stop_training:
                break
        for cb in self.callbacks:
            cb.on_train_end(self)
        return epoch


if __name__ == "__main__":
    x = torch.randn(40, 5)
    y = torch.randint(0, 3, (40,))
    xv = torch.randn(40, 5)
    yv = torch.randint(0, 3, (40,))
    model = nn.Sequential(nn.Linear(5, 64), nn.ReLU(), nn.Linear(64, 3))
    es = EarlyStopping(patience=3)
    trainer = Trainer(model, [LastWeightsLogger(es), es])
    stopped = trainer.fit(x, y, xv, yv)
    with torch.no_grad():
        final_val = nn.functional.cross_entropy(model(xv), yv).item()
    print(f"stopped at {stopped} best {es.best:.6f} final val {final_val:.6f}")
    print("drift", [round(d, 5) for d in trainer.callbacks[0].drift])
