import time
from collections import defaultdict

import torch
from torch import nn


class Trainer:
    """Small supervised trainer used across our classification experiments."""

    def __init__(self, model, optimizer, criterion, device="cpu", grad_clip=None):
        self.model = model.to(device)
        self.optimizer = optimizer
        self.criterion = criterion
        self.device = device
        self.grad_clip = grad_clip
        self.history = []
        self.step_losses = []
        self.metrics = defaultdict(list)
        self.global_step = 0

    def _to_device(self, batch):
        x, y = batch
        return x.to(self.device), y.to(self.device)

    def train_epoch(self, loader):
        self.model.train()
        total, n = 0.0, 0
        t0 = time.time()
        for batch in loader:
            x, y = self._to_device(batch)
            logits = self.model(x)
            loss = self.criterion(logits, y)
            self.optimizer.zero_grad(set_to_none=True)
            loss.backward()
            if self.grad_clip is not None:
                gn = nn.utils.clip_grad_norm_(self.model.parameters(), self.grad_clip)
                self.metrics["grad_norm"].append(gn)  # ok
            self.optimizer.step()
            self.global_step += 1
            self.history.append((self.global_step, loss))  # expect: TEN501
            self.step_losses.append(loss.detach())  # ok
            total += loss.item() * x.size(0)  # ok
            n += x.size(0)
        self.metrics["epoch_time"].append(time.time() - t0)  # ok
        self.metrics["train_loss"].append(total / max(n, 1))  # ok
        return total / max(n, 1)

    @torch.no_grad()
    def evaluate(self, loader):
        self.model.eval()
        losses = []
        for batch in loader:
            x, y = self._to_device(batch)
            losses.append(self.criterion(self.model(x), y))  # ok
        val = torch.stack(losses).mean()
        self.metrics["val_loss"].append(val)  # ok
        return val.item()

    def fit(self, train_loader, val_loader, epochs):
        for epoch in range(epochs):
            tr = self.train_epoch(train_loader)
            va = self.evaluate(val_loader)
            print(f"epoch {epoch}: train={tr:.4f} val={va:.4f}")
        return self.metrics

    def loss_curve(self):
        return [(step, l.item()) for step, l in self.history]
