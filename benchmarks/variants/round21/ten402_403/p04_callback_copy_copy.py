"""A Lightning-style callback that restores the best model *and* optimizer state at fit end."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class Callback:
    def on_validation_end(self, trainer, module):
        pass

    def on_fit_end(self, trainer, module):
        pass


class RestoreBest(Callback):
    def __init__(self):
        self.best = float("inf")
        self.best_weights = None
        self.best_optim = None

    def on_validation_end(self, trainer, module):
        if trainer.val_loss < self.best:
            self.best = trainer.val_loss
            self.best_weights = copy.copy(module.state_dict())  # expect: TEN402
            self.best_optim = trainer.optimizer.state_dict()  # expect: TEN402
            self.best_exp_avg = self.best_optim["state"][0]["exp_avg"].norm().item()

    def on_fit_end(self, trainer, module):
        module.load_state_dict(self.best_weights)
        trainer.optimizer.load_state_dict(self.best_optim)


class RestoreBestDeep(RestoreBest):
    def on_validation_end(self, trainer, module):
        if trainer.val_loss < self.best:
            self.best = trainer.val_loss
            self.best_weights = copy.deepcopy(module.state_dict())  # ok
            self.best_optim = copy.deepcopy(trainer.optimizer.state_dict())  # ok
            self.best_exp_avg = self.best_optim["state"][0]["exp_avg"].norm().item()


class MiniTrainer:
    def __init__(self, module, callbacks):
        self.module = module
        self.callbacks = callbacks
        self.optimizer = torch.optim.Adam(module.parameters(), lr=3e-2)
        self.val_loss = None

    def fit(self, train, val, epochs):
        for _ in range(epochs):
            self.module.train()
            self.optimizer.zero_grad()
            F.mse_loss(self.module(train[0]), train[1]).backward()
            self.optimizer.step()
            self.module.eval()
            with torch.no_grad():
                self.val_loss = F.mse_loss(self.module(val[0]), val[1]).item()
            for cb in self.callbacks:
                cb.on_validation_end(self, self.module)
        for cb in self.callbacks:
            cb.on_fit_end(self, self.module)


if __name__ == "__main__":
    g = torch.Generator().manual_seed(3)
    w = torch.randn(6, 1, generator=g)
    xt = torch.randn(20, 6, generator=g)
    train = (xt, xt @ w + torch.randn(20, 1, generator=g))
    xv = torch.randn(200, 6, generator=g)
    val = (xv, xv @ w)
    for cls in (RestoreBest, RestoreBestDeep):
        torch.manual_seed(0)
        module = nn.Sequential(nn.Linear(6, 48), nn.Tanh(), nn.Linear(48, 1))
        cb = cls()
        tr = MiniTrainer(module, [cb])
        tr.fit(train, val, epochs=80)
        with torch.no_grad():
            restored = F.mse_loss(module(val[0]), val[1]).item()
        st = tr.optimizer.state_dict()["state"][0]
        print(f"{cls.__name__:15s} best_val={cb.best:.4f} last_val={tr.val_loss:.4f} "
              f"val_after_restore={restored:.4f} exp_avg_norm_at_best={cb.best_exp_avg:.5f} "
              f"exp_avg_norm_restored={st['exp_avg'].norm().item():.5f} step_restored={int(st['step'])}")
