from dataclasses import dataclass, field
from typing import Callable, List

import torch
from torch import nn


@dataclass
class History:
    train_loss: List[float] = field(default_factory=list)
    valid_score: List[float] = field(default_factory=list)


class Learner:
    def __init__(self, model: nn.Module, loss_fn: Callable, opt_fn: Callable, metric: Callable, device="cuda"):
        self.model = model.to(device)
        self.loss_fn = loss_fn
        self.opt = opt_fn(self.model.parameters())
        self.metric = metric
        self.device = device
        self.history = History()

    def weights(self):
        return self.model.state_dict()

    def load_weights(self, state):
        self.model.load_state_dict(state)

    def export(self, path):
        torch.save(self.weights(), path)  # ok

    def fit_one_epoch(self, loader):
        self.model.train()
        total = 0.0
        for xb, yb in loader:
            xb, yb = xb.to(self.device), yb.to(self.device)
            loss = self.loss_fn(self.model(xb), yb)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            total += loss.item()
        self.history.train_loss.append(total / len(loader))

    @torch.no_grad()
    def score(self, loader):
        self.model.eval()
        preds, targs = [], []
        for xb, yb in loader:
            preds.append(self.model(xb.to(self.device)).cpu())
            targs.append(yb)
        s = float(self.metric(torch.cat(preds), torch.cat(targs)))
        self.history.valid_score.append(s)
        return s


def train_with_patience(learner: Learner, train_dl, valid_dl, max_epochs=50, patience=5):
    best, best_w, wait = float("-inf"), None, 0
    for epoch in range(max_epochs):
        learner.fit_one_epoch(train_dl)
        s = learner.score(valid_dl)
        print(f"epoch {epoch:02d} train_loss {learner.history.train_loss[-1]:.4f} valid {s:.4f}")
        if s > best:
            best, wait = s, 0
            best_w = learner.weights()  # expect: TEN402
        else:
            wait += 1
            if wait >= patience:
                break
    if best_w is not None:
        learner.load_weights(best_w)
    return best
