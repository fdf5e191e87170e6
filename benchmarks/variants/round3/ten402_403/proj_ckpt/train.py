"""Minimal callback-driven trainer; see callbacks.py."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from callbacks import LRLogger, ModelCheckpoint, RestoreBestWeights


class Trainer:
    def __init__(self, model, optimizer, scheduler=None, callbacks=(), max_epochs=50, device="cuda"):
        self.model = model.to(device)
        self.optimizer = optimizer
        self.scheduler = scheduler
        self.callbacks = list(callbacks)
        self.max_epochs = max_epochs
        self.device = device
        self.should_stop = False

    def _call(self, hook, *args):
        for cb in self.callbacks:
            getattr(cb, hook)(self, *args)

    def fit(self, train_loader, val_loader, loss_fn):
        self._call("on_train_start")
        for epoch in range(self.max_epochs):
            self.model.train()
            total = 0.0
            for x, y in train_loader:
                x, y = x.to(self.device), y.to(self.device)
                loss = loss_fn(self.model(x), y)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                total += loss.item()
            if self.scheduler is not None:
                self.scheduler.step()

            self.model.eval()
            val = 0.0
            with torch.no_grad():
                for x, y in val_loader:
                    val += loss_fn(self.model(x.to(self.device)), y.to(self.device)).item()
            logs = {"loss": total / len(train_loader), "val_loss": val / len(val_loader)}
            self._call("on_epoch_end", epoch, logs)
            print(f"epoch {epoch}: " + " ".join(f"{k}={v:.4g}" for k, v in logs.items()))
            if self.should_stop:
                break
        self._call("on_train_end")


def main(train_ds, val_ds):
    model = nn.Sequential(nn.Flatten(), nn.Linear(28 * 28, 512), nn.ReLU(), nn.Linear(512, 10))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    scheduler = torch.optim.lr_scheduler.ExponentialLR(optimizer, 0.95)
    restore = RestoreBestWeights(patience=8)
    trainer = Trainer(model, optimizer, scheduler,
                      callbacks=[ModelCheckpoint("ckpts"), restore, LRLogger()], max_epochs=100)
    trainer.fit(DataLoader(train_ds, batch_size=128, shuffle=True), DataLoader(val_ds, batch_size=512),
                nn.CrossEntropyLoss())

    print(f"restoring weights from epoch {restore.best_epoch} (val_loss={restore.best:.4f})")
    model.load_state_dict(restore.best_weights)
    torch.save(model.state_dict(), "final_best.pt")
    return model
