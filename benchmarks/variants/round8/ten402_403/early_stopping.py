"""Early stopping helper shared by the regression experiments."""
import copy
import logging

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Subset, TensorDataset

logger = logging.getLogger(__name__)


class EarlyStopping:
    """Stops training when the validation loss stops improving.

    If ``path`` is given the best weights are written to disk, otherwise they
    are kept in memory and can be put back with :meth:`restore`.
    """

    def __init__(self, patience=7, min_delta=0.0, path=None, verbose=False):
        self.patience = patience
        self.min_delta = min_delta
        self.path = path
        self.verbose = verbose
        self.counter = 0
        self.best_score = None
        self.best_state = None
        self.early_stop = False
        self.val_loss_min = np.inf

    def __call__(self, val_loss, model):
        score = -val_loss
        if self.best_score is None or score > self.best_score + self.min_delta:
            self.best_score = score
            self._checkpoint(val_loss, model)
            self.counter = 0
        else:
            self.counter += 1
            if self.verbose:
                logger.info("EarlyStopping counter: %d out of %d", self.counter, self.patience)
            if self.counter >= self.patience:
                self.early_stop = True

    def _checkpoint(self, val_loss, model):
        if self.verbose:
            logger.info("Validation loss decreased (%.6f --> %.6f).", self.val_loss_min, val_loss)
        if self.path is not None:
            torch.save(model.state_dict(), self.path)  # ok
        else:
            self.best_state = model.state_dict()  # expect: TEN402
        self.val_loss_min = val_loss

    def restore(self, model):
        if self.path is not None:
            model.load_state_dict(torch.load(self.path, map_location="cpu"))
        elif self.best_state is not None:
            model.load_state_dict(self.best_state)


class TabularNet(nn.Module):
    def __init__(self, n_in, hidden=128, dropout=0.1):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(n_in, hidden),
            nn.BatchNorm1d(hidden),
            nn.ReLU(),
            nn.Dropout(dropout),
            nn.Linear(hidden, hidden // 2),
            nn.ReLU(),
            nn.Linear(hidden // 2, 1),
        )

    def forward(self, x):
        return self.net(x).squeeze(-1)


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    total, n = 0.0, 0
    for xb, yb in loader:
        total += F.mse_loss(model(xb), yb, reduction="sum").item()
        n += yb.numel()
    return total / max(n, 1)


def fit(model, train_loader, val_loader, epochs=200, lr=1e-3, patience=15):
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    stopper = EarlyStopping(patience=patience, verbose=True)
    for epoch in range(epochs):
        model.train()
        for xb, yb in train_loader:
            optimizer.zero_grad(set_to_none=True)
            loss = F.mse_loss(model(xb), yb)
            loss.backward()
            optimizer.step()
        val_loss = evaluate(model, val_loader)
        logger.info("epoch %d val_mse %.5f", epoch, val_loss)
        stopper(val_loss, model)
        if stopper.early_stop:
            logger.info("stopping early at epoch %d", epoch)
            break
    stopper.restore(model)
    return model


def cross_validate(X, y, n_folds=5, batch_size=256, seed=0):
    rng = np.random.default_rng(seed)
    idx = rng.permutation(len(X))
    folds = np.array_split(idx, n_folds)
    dataset = TensorDataset(torch.as_tensor(X, dtype=torch.float32), torch.as_tensor(y, dtype=torch.float32))

    model = TabularNet(X.shape[1])
    init_state = copy.deepcopy(model.state_dict())  # ok
    scores = []
    for k in range(n_folds):
        val_idx = folds[k]
        train_idx = np.concatenate([folds[j] for j in range(n_folds) if j != k])
        train_loader = DataLoader(Subset(dataset, train_idx.tolist()), batch_size=batch_size, shuffle=True)
        val_loader = DataLoader(Subset(dataset, val_idx.tolist()), batch_size=batch_size)
        model.load_state_dict(init_state)
        fit(model, train_loader, val_loader)
        scores.append(evaluate(model, val_loader))
    return float(np.mean(scores)), float(np.std(scores))


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    X = np.random.randn(2000, 16).astype(np.float32)
    y = (X[:, 0] * 2.0 - X[:, 3] + 0.1 * np.random.randn(2000)).astype(np.float32)
    print(cross_validate(X, y))
