import logging

import numpy as np
import torch
from torch import nn

log = logging.getLogger(__name__)


class EarlyStopping:
    """Stops training when the validation loss has not improved for `patience` epochs."""

    def __init__(self, patience=7, min_delta=0.0, ckpt_path=None, verbose=False):
        self.patience = patience
        self.min_delta = min_delta
        self.ckpt_path = ckpt_path
        self.verbose = verbose
        self.counter = 0
        self.best_score = None
        self.best_state = None
        self.early_stop = False
        self.val_loss_min = np.inf

    def __call__(self, val_loss, model):
        score = -val_loss
        if self.best_score is None or score > self.best_score + self.min_delta:
            if self.verbose:
                log.info("val loss decreased (%.6f --> %.6f)", self.val_loss_min, val_loss)
            self.best_score = score
            self.val_loss_min = val_loss
            self.best_state = model.state_dict()  # expect: TEN402
            if self.ckpt_path is not None:
                torch.save(model.state_dict(), self.ckpt_path)  # ok
            self.counter = 0
        else:
            self.counter += 1
            if self.verbose:
                log.info("EarlyStopping counter: %d / %d", self.counter, self.patience)
            if self.counter >= self.patience:
                self.early_stop = True

    def restore(self, model):
        if self.best_state is not None:
            model.load_state_dict(self.best_state)


def fit(model, train_loader, val_loader, epochs=100, lr=1e-3, device="cuda"):
    model.to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=lr)
    crit = nn.CrossEntropyLoss()
    stopper = EarlyStopping(patience=5, ckpt_path="checkpoint.pt", verbose=True)
    for epoch in range(epochs):
        model.train()
        for xb, yb in train_loader:
            xb, yb = xb.to(device), yb.to(device)
            opt.zero_grad()
            loss = crit(model(xb), yb)
            loss.backward()
            opt.step()

        model.eval()
        total, n = 0.0, 0
        with torch.no_grad():
            for xb, yb in val_loader:
                xb, yb = xb.to(device), yb.to(device)
                total += crit(model(xb), yb).item() * xb.size(0)
                n += xb.size(0)
        stopper(total / n, model)
        if stopper.early_stop:
            log.info("early stopping at epoch %d", epoch)
            break

    stopper.restore(model)
    return model
