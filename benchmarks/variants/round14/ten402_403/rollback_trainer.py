"""Trainer that rolls back to the last good weights when the loss spikes."""
from dataclasses import dataclass

import torch
from torch import nn


@dataclass
class RollbackConfig:
    spike_factor: float = 1.5
    lr: float = 0.3
    steps: int = 30
    device: str = "cpu"
    copy_on_save: bool = False


class RollbackTrainer:
    def __init__(self, model, cfg: RollbackConfig):
        self.cfg = cfg
        self.device = torch.device(cfg.device)
        self.model = model.to(self.device)
        self.opt = torch.optim.SGD(self.model.parameters(), lr=cfg.lr)
        self._last_good = None
        self._last_good_loss = float("inf")
        self.rollbacks = 0

    def _remember(self, loss):
        sd = self.model.state_dict()  # either
        if self.cfg.copy_on_save:
            self._last_good = {k: v.to(self.device, copy=True) for k, v in sd.items()}  # ok
        else:
            self._last_good = {k: v.to(self.device) for k, v in sd.items()}  # expect: TEN402
        self._last_good_loss = loss

    def _rollback(self):
        self.model.load_state_dict(self._last_good)
        for g in self.opt.param_groups:
            g["lr"] *= 0.5
        self.opt.state.clear()
        self.rollbacks += 1

    def fit(self, x, y):
        x, y = x.to(self.device), y.to(self.device)
        for step in range(self.cfg.steps):
            loss = nn.functional.mse_loss(self.model(x), y)
            if loss.item() > self.cfg.spike_factor * self._last_good_loss:
                self._rollback()
                continue
            self._remember(loss.item())
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
        with torch.no_grad():
            return nn.functional.mse_loss(self.model(x), y).item()


if __name__ == "__main__":
    for copy_on_save in (False, True):
        torch.manual_seed(0)
        x = torch.randn(64, 4) * 3
        y = x @ torch.tensor([[1.0], [-2.0], [0.5], [3.0]])
        model = nn.Linear(4, 1)
        trainer = RollbackTrainer(model, RollbackConfig(copy_on_save=copy_on_save))
        final = trainer.fit(x, y)
        print(f"copy_on_save={copy_on_save}: rollbacks={trainer.rollbacks} final loss={final:.4g}")
