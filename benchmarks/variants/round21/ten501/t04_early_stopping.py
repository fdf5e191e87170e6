"""pytorchtools-style EarlyStopping fed by an evaluate() that forgot torch.no_grad()."""
import copy

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class EarlyStopping:
    """Early stops the training if validation loss doesn't improve after a given patience."""

    def __init__(self, patience=3, delta=0.0, verbose=False):
        self.patience = patience
        self.delta = delta
        self.verbose = verbose
        self.counter = 0
        self.best_score = None
        self.early_stop = False
        self.val_loss_min = np.inf
        self.scores = []
        self.best_state = None

    def __call__(self, val_loss, model):
        score = -val_loss
        self.scores.append(score)
        if self.best_score is None:
            self.best_score = score
            self.save_checkpoint(val_loss, model)
        elif score < self.best_score + self.delta:
            self.counter += 1
            if self.counter >= self.patience:
                self.early_stop = True
        else:
            self.best_score = score
            self.save_checkpoint(val_loss, model)
            self.counter = 0

    def save_checkpoint(self, val_loss, model):
        if self.verbose:
            print(f"Validation loss decreased ({float(self.val_loss_min):.6f} --> {float(val_loss):.6f}).")
        self.best_state = copy.deepcopy(model.state_dict())
        self.val_loss_min = val_loss


def evaluate(model, loader):
    model.eval()
    total_loss = 0.0
    correct = 0
    n = 0
    for xb, yb in loader:
        out = model(xb)
        loss = F.cross_entropy(out, yb)
        total_loss += loss * xb.size(0)  # expect: TEN501
        correct += (out.argmax(1) == yb).sum()  # ok
        n += xb.size(0)
    model.train()
    return total_loss / n, correct.item() / n


@torch.no_grad()
def evaluate_no_grad(model, loader):
    model.eval()
    total_loss = 0.0
    n = 0
    for xb, yb in loader:
        loss = F.cross_entropy(model(xb), yb)
        total_loss += loss * xb.size(0)  # ok
        n += xb.size(0)
    model.train()
    return total_loss / n


def batches(x, y, bs):
    return [(x[i:i + bs], y[i:i + bs]) for i in range(0, len(x), bs)]


def main():
    x = torch.randn(384, 20)
    y = (x[:, :5].sum(1) > 0).long()
    train_loader = batches(x[:256], y[:256], 32)
    val_loader = batches(x[256:], y[256:], 32)

    model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Dropout(0.2), nn.Linear(64, 2))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    early_stopping = EarlyStopping(patience=2, verbose=True)
    early_stopping_ok = EarlyStopping(patience=2)
    train_losses, val_accs = [], []

    for epoch in range(6):
        running = 0.0
        for xb, yb in train_loader:
            optimizer.zero_grad()
            loss = F.cross_entropy(model(xb), yb)
            loss.backward()
            optimizer.step()
            running += loss.item() * xb.size(0)  # ok
        train_losses.append(running / 256)

        val_loss, val_acc = evaluate(model, val_loader)
        val_accs.append(val_acc)
        early_stopping(val_loss, model)  # expect: TEN501

        val_loss_ng = evaluate_no_grad(model, val_loader)
        early_stopping_ok(val_loss_ng, model)  # ok
        print(f"epoch {epoch} train {train_losses[-1]:.4f} val {val_loss.item():.4f} acc {val_acc:.3f}")
        if early_stopping.early_stop:
            print("Early stopping")
            break

    model.load_state_dict(early_stopping.best_state)
    print("scores seen:", [round(-float(s), 4) for s in early_stopping.scores])
    print("best (no-grad stopper):", round(float(early_stopping_ok.val_loss_min), 4))


if __name__ == "__main__":
    main()
