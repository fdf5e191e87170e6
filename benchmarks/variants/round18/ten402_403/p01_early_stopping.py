"""Early stopping with best-weight restoration, plus an in-memory ModelCheckpoint."""
import copy
import io

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def make_data(n_train=16, n_val=64, dim=24, noise=0.8):
    w = torch.randn(dim, 1)
    xt, xv = torch.randn(n_train, dim), torch.randn(n_val, dim)
    yt = xt @ w + noise * torch.randn(n_train, 1)
    yv = xv @ w + noise * torch.randn(n_val, 1)
    return (xt, yt), (xv, yv)


class EarlyStopping:
    """Stop training when the validation loss has not improved for `patience` epochs."""

    def __init__(self, patience=4, min_delta=0.0, restore_best_weights=True):
        self.patience = patience
        self.min_delta = min_delta
        self.restore_best_weights = restore_best_weights
        self.best_loss = float("inf")
        self.best_weights = None
        self.best_epoch = -1
        self.counter = 0
        self.early_stop = False

    def __call__(self, val_loss, model, epoch):
        if val_loss < self.best_loss - self.min_delta:
            self.best_loss = val_loss
            self.best_epoch = epoch
            self.counter = 0
            if self.restore_best_weights:
                self.best_weights = model.state_dict()  # expect: TEN402
        else:
            self.counter += 1
            if self.counter >= self.patience:
                self.early_stop = True
        return self.early_stop

    def restore(self, model):
        if self.best_weights is not None:
            model.load_state_dict(self.best_weights)


class ModelCheckpoint:
    """Keeps the best model in memory and serialized in a buffer."""

    def __init__(self, mode="min"):
        self.mode = mode
        self.best = None
        self.best_state = None
        self.buffer = io.BytesIO()

    def step(self, metric, model):
        better = self.best is None or (metric < self.best if self.mode == "min" else metric > self.best)
        if better:
            self.best = metric
            self.best_state = copy.deepcopy(model.state_dict())  # ok
            self.buffer.seek(0)
            self.buffer.truncate()
            torch.save(model.state_dict(), self.buffer)  # ok
        return better


def evaluate(model, data):
    model.eval()
    with torch.no_grad():
        return F.mse_loss(model(data[0]), data[1]).item()


def fit(model, train, val, callback, epochs=60):
    opt = torch.optim.Adam(model.parameters(), lr=0.05)
    for epoch in range(epochs):
        model.train()
        opt.zero_grad()
        F.mse_loss(model(train[0]), train[1]).backward()
        opt.step()
        vl = evaluate(model, val)
        if callback(vl, model, epoch):
            break
    return epoch


def main():
    train, val = make_data()
    model = nn.Sequential(nn.Linear(24, 32), nn.Tanh(), nn.Linear(32, 1))
    stopper = EarlyStopping(patience=4)
    last = fit(model, train, val, stopper)
    stopper.restore(model)
    print(f"stopped at {last}, best epoch {stopper.best_epoch} "
          f"best {stopper.best_loss:.4f} restored {evaluate(model, val):.4f}")

    model2 = nn.Sequential(nn.Linear(24, 32), nn.Tanh(), nn.Linear(32, 1))
    ckpt = ModelCheckpoint()
    fit(model2, train, val, lambda vl, m, e: ckpt.step(vl, m) and False, epochs=30)
    model2.load_state_dict(ckpt.best_state)
    ckpt.buffer.seek(0)
    from_disk = torch.load(ckpt.buffer)  # ok
    same = all(torch.equal(from_disk[k], ckpt.best_state[k]) for k in from_disk)
    print(f"checkpoint best {ckpt.best:.4f} restored {evaluate(model2, val):.4f} same={same}")


if __name__ == "__main__":
    main()
