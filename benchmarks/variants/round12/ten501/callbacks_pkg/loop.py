import torch

from .callbacks import EarlyStopping, History, PrintLogger


class LoopTrainer:
    def __init__(self, model, optimizer, loss_fn, device="cpu"):
        self.model = model.to(device)
        self.optimizer = optimizer
        self.loss_fn = loss_fn
        self.device = device
        self.history = History()
        self.printer = PrintLogger(every=100)
        self.early = EarlyStopping(patience=5)
        self.stop_training = False

    def fit(self, train_loader, val_loader, epochs):
        self.history.on_train_begin(self)
        for epoch in range(epochs):
            self.model.train()
            running = 0.0
            for x, y in train_loader:
                x, y = x.to(self.device), y.to(self.device)
                out = self.model(x)
                loss = self.loss_fn(out, y)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                running += loss.item()  # ok
                self.history.on_batch_end(self, {"loss": loss})  # expect: TEN501
                self.printer.on_batch_end(self, {"loss": loss})  # ok
            val_loss = self.evaluate(val_loader)
            epoch_logs = {"loss": running / len(train_loader), "val_loss": val_loss}
            self.history.on_epoch_end(self, epoch_logs)  # ok
            self.early.on_epoch_end(self, epoch_logs)  # ok
            if self.stop_training:
                break
        return self.history

    @torch.no_grad()
    def evaluate(self, loader):
        self.model.eval()
        total, n = 0.0, 0
        for x, y in loader:
            x, y = x.to(self.device), y.to(self.device)
            total += self.loss_fn(self.model(x), y).item() * len(x)  # ok
            n += len(x)
        return total / max(n, 1)
