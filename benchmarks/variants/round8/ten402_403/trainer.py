"""Generic supervised trainer used by the sentiment and NER experiments."""
import os
import time

import torch
import torch.nn as nn
from torch.cuda.amp import GradScaler, autocast


class Trainer:
    def __init__(self, model, train_loader, val_loader, loss_fn=None, lr=3e-4, max_epochs=50,
                 patience=5, device=None, ckpt_dir=None, amp=True):
        self.device = device or ("cuda" if torch.cuda.is_available() else "cpu")
        self.model = model.to(self.device)
        self.train_loader = train_loader
        self.val_loader = val_loader
        self.loss_fn = loss_fn or nn.CrossEntropyLoss()
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=lr, weight_decay=0.01)
        self.scheduler = torch.optim.lr_scheduler.OneCycleLR(
            self.optimizer, max_lr=lr, total_steps=max_epochs * len(train_loader)
        )
        self.scaler = GradScaler(enabled=amp)
        self.amp = amp
        self.max_epochs = max_epochs
        self.patience = patience
        self.ckpt_dir = ckpt_dir
        self.history = []
        self._best_weights = None

    def weights(self):
        return self.model.state_dict()

    def load_weights(self, weights):
        self.model.load_state_dict(weights)

    def train_epoch(self):
        self.model.train()
        total = 0.0
        for batch in self.train_loader:
            inputs, targets = (t.to(self.device, non_blocking=True) for t in batch)
            self.optimizer.zero_grad(set_to_none=True)
            with autocast(enabled=self.amp):
                loss = self.loss_fn(self.model(inputs), targets)
            self.scaler.scale(loss).backward()
            self.scaler.unscale_(self.optimizer)
            nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
            self.scaler.step(self.optimizer)
            self.scaler.update()
            self.scheduler.step()
            total += loss.item()
        return total / len(self.train_loader)

    @torch.no_grad()
    def validate(self):
        self.model.eval()
        total, correct, n = 0.0, 0, 0
        for batch in self.val_loader:
            inputs, targets = (t.to(self.device) for t in batch)
            logits = self.model(inputs)
            total += self.loss_fn(logits, targets).item() * targets.size(0)
            correct += (logits.argmax(-1) == targets).sum().item()
            n += targets.size(0)
        return total / n, correct / n

    def fit(self):
        best_loss, stale = float("inf"), 0
        for epoch in range(self.max_epochs):
            t0 = time.time()
            train_loss = self.train_epoch()
            val_loss, val_acc = self.validate()
            self.history.append({"epoch": epoch, "train_loss": train_loss, "val_loss": val_loss, "val_acc": val_acc})
            print(f"[{epoch:03d}] train {train_loss:.4f} val {val_loss:.4f} acc {val_acc:.4f} ({time.time() - t0:.1f}s)")
            if val_loss < best_loss - 1e-4:
                best_loss, stale = val_loss, 0
                self._best_weights = self.weights()  # expect: TEN402
                if self.ckpt_dir is not None:
                    os.makedirs(self.ckpt_dir, exist_ok=True)
                    torch.save(self.weights(), os.path.join(self.ckpt_dir, "best.pt"))  # ok
            else:
                stale += 1
                if stale >= self.patience:
                    print(f"early stopping after {epoch + 1} epochs")
                    break
        if self._best_weights is not None:
            self.load_weights(self._best_weights)
        return self.history
