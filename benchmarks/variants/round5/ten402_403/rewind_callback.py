"""Lightning-style callback that keeps per-epoch snapshots and rewinds the
module to the best epoch when the validation loss blows up."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Callback:
    def on_train_start(self, trainer, pl_module):
        pass

    def on_validation_epoch_end(self, trainer, pl_module):
        pass

    def on_train_end(self, trainer, pl_module):
        pass


class SpikeRewind(Callback):
    def __init__(self, monitor="val_loss", spike_factor=1.5, keep_last=5, save_path=None):
        self.monitor = monitor
        self.spike_factor = spike_factor
        self.keep_last = keep_last
        self.save_path = save_path
        self.snapshots = {}
        self.scores = {}
        self.rewinds = []

    def on_validation_epoch_end(self, trainer, pl_module):
        epoch = trainer.current_epoch
        score = float(trainer.callback_metrics[self.monitor])
        if self.scores:
            best_epoch = min(self.scores, key=self.scores.get)
            if score > self.spike_factor * self.scores[best_epoch]:
                pl_module.load_state_dict(self.snapshots[best_epoch])
                self.rewinds.append((epoch, best_epoch))
                return
        self.snapshots[epoch] = {k: v.cpu() for k, v in pl_module.state_dict().items()}  # expect: TEN402
        self.scores[epoch] = score
        for old in sorted(self.snapshots)[:-self.keep_last]:
            del self.snapshots[old]
            del self.scores[old]

    def on_train_end(self, trainer, pl_module):
        if self.save_path is not None:
            torch.save(pl_module.state_dict(), self.save_path)  # ok


class LitRegressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))

    def training_step(self, batch):
        x, y = batch
        return F.mse_loss(self.net(x), y)

    def validation_step(self, batch):
        x, y = batch
        return F.mse_loss(self.net(x), y)

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.05)


class MiniTrainer:
    def __init__(self, max_epochs, callbacks=()):
        self.max_epochs = max_epochs
        self.callbacks = list(callbacks)
        self.current_epoch = 0
        self.callback_metrics = {}

    def fit(self, module, train_batch, val_batch, lr_schedule=None):
        opt = module.configure_optimizers()
        for cb in self.callbacks:
            cb.on_train_start(self, module)
        for epoch in range(self.max_epochs):
            self.current_epoch = epoch
            if lr_schedule is not None:
                for g in opt.param_groups:
                    g["lr"] = lr_schedule(epoch)
            opt.zero_grad()
            module.training_step(train_batch).backward()
            opt.step()
            with torch.no_grad():
                self.callback_metrics["val_loss"] = module.validation_step(val_batch)
            for cb in self.callbacks:
                cb.on_validation_epoch_end(self, module)
        for cb in self.callbacks:
            cb.on_train_end(self, module)


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(64, 4)
    y = x.sum(1, keepdim=True)
    cb = SpikeRewind()
    lit = LitRegressor()
    # lr jumps at epoch 8 to provoke a divergence
    MiniTrainer(9, callbacks=[cb]).fit(lit, (x, y), (x, y), lr_schedule=lambda e: 2.0 if e == 8 else 0.05)
    with torch.no_grad():
        after = lit.validation_step((x, y)).item()
    print("rewinds:", cb.rewinds, "best kept score:", round(min(cb.scores.values()), 4), "loss after rewind:", round(after, 4))
