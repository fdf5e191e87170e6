import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from callbacks import EarlyStopping, History, ProgressPrinter


class Trainer:
    def __init__(self, model, optimizer, loss_fn, device="cpu", callbacks=None, max_grad_norm=None):
        self.model = model.to(device)
        self.optimizer = optimizer
        self.loss_fn = loss_fn
        self.device = device
        self.callbacks = callbacks or []
        self.max_grad_norm = max_grad_norm
        self.stop_training = False
        self.global_step = 0

    def _call(self, hook, *args):
        for cb in self.callbacks:
            getattr(cb, hook)(self, *args)

    def _train_step(self, x, y):
        out = self.model(x)
        loss = self.loss_fn(out, y)
        self.optimizer.zero_grad()
        loss.backward()
        if self.max_grad_norm is not None:
            nn.utils.clip_grad_norm_(self.model.parameters(), self.max_grad_norm)
        self.optimizer.step()
        return loss

    @torch.no_grad()
    def evaluate(self, loader):
        self.model.eval()
        total, n = 0.0, 0
        for x, y in loader:
            x, y = x.to(self.device), y.to(self.device)
            total += self.loss_fn(self.model(x), y) * x.size(0)  # ok
            n += x.size(0)
        return (total / n).item()

    def fit(self, train_loader, val_loader=None, epochs=10):
        self._call("on_train_begin")
        for epoch in range(epochs):
            self.model.train()
            self._call("on_epoch_begin", epoch)
            epoch_loss = torch.zeros((), device=self.device)
            for batch_idx, (x, y) in enumerate(train_loader):
                x, y = x.to(self.device), y.to(self.device)
                loss = self._train_step(x, y)
                epoch_loss += loss.detach()  # ok
                self.global_step += 1
                logs = {"loss": loss, "lr": self.optimizer.param_groups[0]["lr"], "step": self.global_step}
                self._call("on_batch_end", batch_idx, logs)
            logs = {"train_loss": epoch_loss.item() / len(train_loader)}
            if val_loader is not None:
                logs["val_loss"] = self.evaluate(val_loader)
            print(f"epoch {epoch}: {logs}")
            self._call("on_epoch_end", epoch, logs)
            if self.stop_training:
                break


if __name__ == "__main__":
    torch.manual_seed(0)
    X = torch.randn(5000, 32)
    w = torch.randn(32, 1)
    Y = X @ w + 0.1 * torch.randn(5000, 1)
    train_ds = TensorDataset(X[:4000], Y[:4000])
    val_ds = TensorDataset(X[4000:], Y[4000:])
    model = nn.Sequential(nn.Linear(32, 64), nn.GELU(), nn.Linear(64, 1))
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    history = History()
    trainer = Trainer(model, opt, nn.MSELoss(), callbacks=[history, ProgressPrinter(), EarlyStopping(patience=3)])
    trainer.fit(DataLoader(train_ds, batch_size=64, shuffle=True), DataLoader(val_ds, batch_size=256), epochs=30)
    torch.save({"history": {k: [float(v) for v in vs] for k, vs in history.history.items()}}, "history.pt")
