"""Minimal trainer that keeps the best-validation checkpoint and restores it."""
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)


class Trainer:
    def __init__(self, model, lr=0.05):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
        self.best_loss = float("inf")
        self.best_state = None
        self.best_opt_state = None
        self.best_epoch = -1

    def train_epoch(self, x, y):
        self.model.train()
        for i in range(0, len(x), 16):
            loss = nn.functional.mse_loss(self.model(x[i:i + 16]), y[i:i + 16])
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()

    @torch.no_grad()
    def evaluate(self, x, y):
        self.model.eval()
        return nn.functional.mse_loss(self.model(x), y).item()

    def fit(self, data, epochs):
        xtr, ytr, xva, yva = data
        for epoch in range(epochs):
            self.train_epoch(xtr, ytr)
            val = self.evaluate(xva, yva)
            if val < self.best_loss:
                self.best_loss = val
                self.best_epoch = epoch
                self.best_state = self.model.state_dict()  # expect: TEN402
                self.best_opt_state = copy.deepcopy(self.opt.state_dict())  # ok
        self.model.load_state_dict(self.best_state)
        self.opt.load_state_dict(self.best_opt_state)
        restored = self.evaluate(xva, yva)
        self.train_epoch(xtr[:32], ytr[:32])
        return restored, self.evaluate(xva, yva)


def make_data():
    w = torch.randn(6, 2)
    xtr = torch.randn(64, 6)
    ytr = xtr @ w + 0.8 * torch.randn(64, 2)
    xva = torch.randn(32, 6) * 2.0
    yva = xva @ w
    return xtr, ytr, xva, yva


if __name__ == "__main__":
    model = nn.Sequential(nn.Linear(6, 32), nn.Tanh(), nn.Linear(32, 2))
    trainer = Trainer(model)
    restored, after = trainer.fit(make_data(), epochs=12)
    print(f"best epoch {trainer.best_epoch} best val {trainer.best_loss:.6f}")
    print(f"val after restore {restored:.6f} after extra epoch {after:.6f}")
    print(f"weight sum {sum(p.sum().item() for p in model.parameters()):.6f}")
