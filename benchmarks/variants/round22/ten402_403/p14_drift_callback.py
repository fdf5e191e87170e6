"""A miniature Lightning-style loop with callbacks that monitor weight drift."""
import torch
from torch import nn

torch.manual_seed(0)


class Callback:
    def on_fit_start(self, trainer, module): pass
    def on_train_epoch_start(self, trainer, module): pass
    def on_train_epoch_end(self, trainer, module): pass
    def on_fit_end(self, trainer, module): pass


class LitRegressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(7, 14), nn.SiLU(), nn.Linear(14, 1))

    def training_step(self, batch):
        x, y = batch
        return nn.functional.mse_loss(self.net(x), y)

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=3e-2, weight_decay=0.01)


class Trainer:
    def __init__(self, max_epochs, callbacks):
        self.max_epochs, self.callbacks = max_epochs, callbacks
        self.logged = {}
        self.current_epoch = 0

    def log(self, key, value):
        self.logged.setdefault(key, []).append(round(float(value), 5))

    def _call(self, hook, module):
        for cb in self.callbacks:
            getattr(cb, hook)(self, module)

    def fit(self, module, batches):
        opt = module.configure_optimizers()
        self._call("on_fit_start", module)
        for self.current_epoch in range(self.max_epochs):
            self._call("on_train_epoch_start", module)
            for batch in batches:
                opt.zero_grad()
                module.training_step(batch).backward()
                opt.step()
            self._call("on_train_epoch_end", module)
        self._call("on_fit_end", module)


class EpochDrift(Callback):
    def on_train_epoch_start(self, trainer, module):
        self.prev = {n: p.detach() for n, p in module.named_parameters()}  # expect: TEN402

    def on_train_epoch_end(self, trainer, module):
        d = sum((p.detach() - self.prev[n]).norm() ** 2 for n, p in module.named_parameters()) ** 0.5
        trainer.log("epoch_drift", d)


class TotalDrift(Callback):
    def on_fit_start(self, trainer, module):
        self.initial = {n: p.detach().clone() for n, p in module.named_parameters()}  # ok
        self.initial_vec = torch.nn.utils.parameters_to_vector(module.parameters()).detach()  # ok

    def on_fit_end(self, trainer, module):
        d = sum((p.detach() - self.initial[n]).norm() ** 2 for n, p in module.named_parameters()) ** 0.5
        trainer.log("total_drift", d)
        v = torch.nn.utils.parameters_to_vector(module.parameters()).detach()
        trainer.log("total_drift_vec", (v - self.initial_vec).norm())


x = torch.randn(96, 7)
y = x[:, :2].prod(1, keepdim=True)
batches = [(x[i:i + 32], y[i:i + 32]) for i in range(0, 96, 32)]
trainer = Trainer(max_epochs=5, callbacks=[EpochDrift(), TotalDrift()])
trainer.fit(LitRegressor(), batches)
for k, v in trainer.logged.items():
    print(k, v)
