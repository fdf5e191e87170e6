"""Lightning-style callbacks that keep the best model state and restore it on train end."""
import torch
import torch.nn as nn


class Callback:
    def on_validation_end(self, trainer, module):
        pass

    def on_train_end(self, trainer, module):
        pass


class RestoreBest(Callback):
    def __init__(self):
        self.best = float("inf")
        self.best_model_state = None

    def on_validation_end(self, trainer, module):
        if trainer.val_loss < self.best:
            self.best = trainer.val_loss
            self.best_model_state = module.state_dict()  # expect: TEN402

    def on_train_end(self, trainer, module):
        module.load_state_dict(self.best_model_state)


class RestoreBestOffloaded(RestoreBest):
    """Offload the best weights to CPU -- which is a no-op when training on CPU."""

    def on_validation_end(self, trainer, module):
        if trainer.val_loss < self.best:
            self.best = trainer.val_loss
            self.best_model_state = {k: v.cpu() for k, v in module.state_dict().items()}  # expect: TEN402


class RestoreBestCloned(RestoreBest):
    def on_validation_end(self, trainer, module):
        if trainer.val_loss < self.best:
            self.best = trainer.val_loss
            self.best_model_state = {k: v.detach().cpu().clone() for k, v in module.state_dict().items()}  # ok


class MiniTrainer:
    def __init__(self, callbacks, val_schedule):
        self.callbacks = callbacks
        self.val_schedule = val_schedule
        self.val_loss = None

    def fit(self, module, x, y):
        opt = torch.optim.SGD(module.parameters(), lr=0.1)
        for v in self.val_schedule:
            opt.zero_grad()
            nn.functional.mse_loss(module(x), y).backward()
            opt.step()
            self.val_loss = v
            for cb in self.callbacks:
                cb.on_validation_end(self, module)
        for cb in self.callbacks:
            cb.on_train_end(self, module)


for cls in (RestoreBest, RestoreBestOffloaded, RestoreBestCloned):
    torch.manual_seed(0)
    module = nn.Linear(4, 2)
    x, y = torch.randn(20, 4), torch.randn(20, 2)
    MiniTrainer([cls()], [0.5, 0.2, 0.4, 0.6]).fit(module, x, y)
    print("%s restored checksum: %.6f" % (cls.__name__, module.weight.sum().item()))
