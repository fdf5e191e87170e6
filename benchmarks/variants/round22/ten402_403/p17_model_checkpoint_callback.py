"""Lightning-flavoured ModelCheckpoint keeping the best weights in memory, plus SWA-ish restore."""
import copy
from collections import OrderedDict

import torch
from torch import nn

torch.manual_seed(0)


class ModelCheckpoint:
    def __init__(self, monitor="val_loss", mode="min", save_top_k=2):
        self.monitor, self.mode, self.save_top_k = monitor, mode, save_top_k
        self.best_k_models = {}
        self.best_model_score = None
        self.best_model_state = None

    def _improved(self, score):
        if self.best_model_score is None:
            return True
        return score < self.best_model_score if self.mode == "min" else score > self.best_model_score

    def on_validation_end(self, trainer, pl_module):
        score = trainer.callback_metrics[self.monitor]
        if self._improved(score):
            self.best_model_score = score
            self.best_model_state = OrderedDict(pl_module.state_dict())  # expect: TEN402
        self.best_k_models[round(score, 6)] = copy.copy(pl_module.state_dict())  # expect: TEN402
        if len(self.best_k_models) > self.save_top_k:
            worst = max(self.best_k_models) if self.mode == "min" else min(self.best_k_models)
            del self.best_k_models[worst]

    def on_fit_end(self, trainer, pl_module):
        pl_module.load_state_dict(self.best_model_state)


class FinalWeights:
    """Keeps the last epoch's weights for comparison; taken after training has stopped."""

    def on_validation_end(self, trainer, pl_module):
        pass

    def on_fit_end(self, trainer, pl_module):
        trainer.final_state = {k: v.clone() for k, v in pl_module.state_dict().items()}  # ok


class MiniTrainer:
    def __init__(self, callbacks, epochs):
        self.callbacks, self.epochs = callbacks, epochs
        self.callback_metrics = {}

    def fit(self, module, data, val):
        opt = torch.optim.SGD(module.parameters(), lr=0.5)
        for _ in range(self.epochs):
            for xb, yb in data:
                opt.zero_grad()
                nn.functional.cross_entropy(module(xb), yb).backward()
                opt.step()
            with torch.no_grad():
                self.callback_metrics["val_loss"] = nn.functional.cross_entropy(module(val[0]), val[1]).item()
            for cb in self.callbacks:
                cb.on_validation_end(self, module)
        for cb in reversed(self.callbacks):
            cb.on_fit_end(self, module)


x = torch.randn(40, 6)
y = (x[:, 0] > x[:, 1]).long()
xv = torch.randn(200, 6)
yv = (xv[:, 0] > xv[:, 1]).long()
data = [(x[i:i + 8], y[i:i + 8]) for i in range(0, 40, 8)]
module = nn.Sequential(nn.Linear(6, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 2))
ckpt = ModelCheckpoint(save_top_k=2)
trainer = MiniTrainer([ckpt, FinalWeights()], epochs=20)
trainer.fit(module, data, (xv, yv))

with torch.no_grad():
    after_fit = nn.functional.cross_entropy(module(xv), yv).item()
    print(f"best score {ckpt.best_model_score:.5f}; val loss after on_fit_end restore {after_fit:.5f}")
    avg = {k: sum(s[k] for s in ckpt.best_k_models.values()) / len(ckpt.best_k_models)
           for k in module.state_dict()}
    module.load_state_dict(avg)
    print(f"top-{len(ckpt.best_k_models)} average val loss {nn.functional.cross_entropy(module(xv), yv).item():.5f}")
    module.load_state_dict(trainer.final_state)
    print(f"final-epoch weights val loss {nn.functional.cross_entropy(module(xv), yv).item():.5f}")
