"""Keep the k best checkpoints (in memory) according to a validation loss."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class CheckpointManager:
    def __init__(self, keep=2):
        self.keep = keep
        self.saved = []

    def save(self, model, optimizer, epoch, metric):
        state = {
            "epoch": epoch,
            "model": {k: v.clone() for k, v in model.state_dict().items()},
            "optimizer": copy.deepcopy(optimizer.state_dict()),
            "metric": float(metric),
        }
        self.saved.append(state)
        self.saved.sort(key=lambda s: s["metric"])
        del self.saved[self.keep:]

    def best(self):
        return self.saved[0]


def make_split(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 6, generator=g)
    y = (x.sum(1) > 0).long()
    return [(x[i:i + 20], y[i:i + 20]) for i in range(0, n, 20)]


def validate(model, val_batches):
    model.eval()
    n_val = sum(len(xb) for xb, _ in val_batches)
    val_loss = sum(F.cross_entropy(model(xb), yb) * len(xb) for xb, yb in val_batches) / n_val  # expect: TEN501
    return val_loss


def main():
    train_batches, val_batches = make_split(160, 0), make_split(60, 1)
    model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Dropout(0.1), nn.Linear(16, 2))
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    ckpt = CheckpointManager(keep=2)
    val_curve = []
    best = float("inf")
    for epoch in range(4):
        model.train()
        for xb, yb in train_batches:
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        val_loss = validate(model, val_batches)
        ckpt.save(model, opt, epoch, val_loss)  # ok
        val_curve.append(val_loss)  # expect: TEN501
        if val_loss < best:
            best = val_loss.item()  # ok
        print(f"epoch {epoch}: val {val_loss.item():.4f}")
    print("best epoch", ckpt.best()["epoch"], "best", round(best, 4))


if __name__ == "__main__":
    main()
