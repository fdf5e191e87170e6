import torch


class Trainer:
    def __init__(self, model, optimizer, loss_fn, callbacks=(), device="cpu"):
        self.model = model.to(device)
        self.optimizer = optimizer
        self.loss_fn = loss_fn
        self.callbacks = list(callbacks)
        self.device = device
        self.history = []

    def log(self, msg):
        print(f"[trainer] {msg}")

    def _run_epoch(self, loader, train):
        self.model.train(train)
        total, n = 0.0, 0
        for x, y in loader:
            x, y = x.to(self.device), y.to(self.device)
            with torch.set_grad_enabled(train):
                loss = self.loss_fn(self.model(x), y)
            if train:
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
            total += loss.item() * x.shape[0]
            n += x.shape[0]
        return total / max(n, 1)

    def fit(self, train_loader, val_loader, epochs):
        for cb in self.callbacks:
            cb.on_train_begin(self)
        for epoch in range(epochs):
            logs = {
                "loss": self._run_epoch(train_loader, True),
                "val_loss": self._run_epoch(val_loader, False),
            }
            self.history.append(logs)
            for cb in self.callbacks:
                cb.on_epoch_end(self, epoch, logs)
        for cb in self.callbacks:
            cb.on_train_end(self)
        return self.history

    def export(self, path):
        weights = self.model.state_dict()  # ok
        torch.save(weights, path)
