"""A tiny Keras-like Trainer that keeps a per-key history of train_step outputs."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F


class Trainer:
    def __init__(self, model, optimizer, l2=1e-4):
        self.model = model
        self.optimizer = optimizer
        self.l2 = l2
        self.history = defaultdict(list)
        self.epoch_summaries = []
        self.best_loss = float("inf")
        self.global_step = 0

    def train_step(self, batch):
        x, y = batch
        out = self.model(x)
        ce = F.cross_entropy(out, y)
        l2 = self.l2 * sum((p ** 2).sum() for p in self.model.parameters())
        loss = ce + l2
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return {"loss": loss, "ce": ce, "l2": l2}

    def fit(self, loader, epochs=2, window=4):
        for epoch in range(epochs):
            for batch in loader:
                logs = self.train_step(batch)
                for name, value in logs.items():
                    self.history[name].append(value)  # expect: TEN501
                self.best_loss = min(self.best_loss, logs["loss"].item())  # ok
                self.global_step += 1  # ok
            summary = {k: torch.stack(v[-window:]).mean().item() for k, v in self.history.items()}
            self.epoch_summaries.append(summary)  # ok
            print(f"epoch {epoch}: " + ", ".join(f"{k}={v:.4f}" for k, v in summary.items()))
        return self


def synthetic_loader(n=128, dim=12, classes=3, bs=16):
    x = torch.randn(n, dim)
    y = (x[:, :classes] * torch.arange(1, classes + 1)).argmax(1)
    return [(x[i:i + bs], y[i:i + bs]) for i in range(0, n, bs)]


if __name__ == "__main__":
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(12, 32), nn.GELU(), nn.Linear(32, 3))
    trainer = Trainer(net, torch.optim.AdamW(net.parameters(), lr=3e-3))
    trainer.fit(synthetic_loader(), epochs=3)
    print("steps", trainer.global_step, "best", round(trainer.best_loss, 4))
