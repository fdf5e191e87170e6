import torch


class Trainer:
    def __init__(self, model, criterion, optimizer, scheduler=None, callbacks=None, device="cuda", grad_clip=None):
        self.model = model.to(device)
        self.criterion = criterion
        self.optimizer = optimizer
        self.scheduler = scheduler
        self.callbacks = list(callbacks or [])
        self.device = device
        self.grad_clip = grad_clip
        self.history = {"train_loss": [], "val_loss": [], "lr": []}

    def _to_device(self, batch):
        x, y = batch
        return x.to(self.device, non_blocking=True), y.to(self.device, non_blocking=True)

    def train_epoch(self, loader):
        self.model.train()
        total, n = 0.0, 0
        for batch_idx, batch in enumerate(loader):
            x, y = self._to_device(batch)
            outputs = self.model(x)
            loss = self.criterion(outputs, y)

            self.optimizer.zero_grad(set_to_none=True)
            loss.backward()
            if self.grad_clip:
                torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.grad_clip)
            self.optimizer.step()

            total += loss.item() * y.size(0)  # ok
            n += y.size(0)
            for cb in self.callbacks:
                cb.on_batch_end(self, batch_idx, loss, outputs, y)  # expect: TEN501
        return total / n

    def validate(self, loader):
        self.model.eval()
        total, n = 0.0, 0
        with torch.no_grad():
            for batch_idx, batch in enumerate(loader):
                x, y = self._to_device(batch)
                outputs = self.model(x)
                loss = self.criterion(outputs, y)
                total += loss * y.size(0)  # ok
                n += y.size(0)
                for cb in self.callbacks:
                    cb.on_val_batch_end(self, batch_idx, loss, outputs, y)  # ok
        return float(total) / n

    def fit(self, train_loader, val_loader, epochs):
        for cb in self.callbacks:
            cb.on_train_begin(self)
        for epoch in range(epochs):
            train_loss = self.train_epoch(train_loader)
            val_loss = self.validate(val_loader)
            if self.scheduler is not None:
                self.scheduler.step()
            self.history["train_loss"].append(train_loss)  # ok
            self.history["val_loss"].append(val_loss)  # ok
            self.history["lr"].append(self.optimizer.param_groups[0]["lr"])
            logs = {"train_loss": train_loss, "val_loss": val_loss}
            for cb in self.callbacks:
                cb.on_epoch_end(self, epoch, logs)
            print(f"epoch {epoch}: " + " ".join(f"{k}={v:.4f}" for k, v in logs.items()))
        return self.history
