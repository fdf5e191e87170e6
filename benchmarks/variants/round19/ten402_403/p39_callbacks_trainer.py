"""A minimal trainer with Lightning-like callbacks."""
import io
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class Callback:
    def on_epoch_end(self, trainer, metric):
        pass

    def on_fit_end(self, trainer):
        pass


class BestWeights(Callback):
    def __init__(self):
        self.best, self.state = float("inf"), None

    def on_epoch_end(self, trainer, metric):
        if metric < self.best:
            self.best = metric
            self.state = trainer.model.state_dict()  # expect: TEN402

    def on_fit_end(self, trainer):
        trainer.model.load_state_dict(self.state)


class BestWeightsCPU(Callback):
    def __init__(self):
        self.best, self.state = float("inf"), None

    def on_epoch_end(self, trainer, metric):
        if metric < self.best:
            self.best = metric
            self.state = {k: v.detach().cpu().clone() for k, v in trainer.model.state_dict().items()}  # ok


class SaveEveryEpoch(Callback):
    def __init__(self):
        self.blobs = []

    def on_epoch_end(self, trainer, metric):
        buf = io.BytesIO()
        torch.save(trainer.model.state_dict(), buf)  # ok
        self.blobs.append(buf.getvalue())


class Trainer:
    def __init__(self, model, callbacks):
        self.model, self.callbacks = model, callbacks
        self.opt = torch.optim.SGD(model.parameters(), lr=1.5)

    def fit(self, x, y, xv, yv, epochs):
        for _ in range(epochs):
            self.opt.zero_grad()
            nn.functional.mse_loss(self.model(x), y).backward()
            self.opt.step()
            with torch.no_grad():
                metric = nn.functional.mse_loss(self.model(xv), yv).item()
            for cb in self.callbacks:
                cb.on_epoch_end(self, metric)
        for cb in self.callbacks:
            cb.on_fit_end(self)


x, y = torch.randn(30, 3), torch.randn(30, 1)
xv, yv = torch.randn(10, 3), torch.randn(10, 1)
best, best_cpu, saver = BestWeights(), BestWeightsCPU(), SaveEveryEpoch()
tr = Trainer(nn.Linear(3, 1), [best, best_cpu, saver])
tr.fit(x, y, xv, yv, epochs=10)
final = nn.functional.mse_loss(tr.model(xv), yv).item()
print(f"best metric {best.best:.4f}, metric after 'restore' {final:.4f}, saved {len(saver.blobs)} blobs")
tr.model.load_state_dict(best_cpu.state)
print("after proper restore", round(nn.functional.mse_loss(tr.model(xv), yv).item(), 4))
