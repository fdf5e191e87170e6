"""A tiny Lightning-like core: module base class and a trainer."""
from collections import defaultdict

import torch


class LitModule(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self._logged = defaultdict(list)

    def log(self, name, value):
        self._logged[name].append(value)

    def training_step(self, batch, batch_idx):
        raise NotImplementedError

    def validation_step(self, batch, batch_idx):
        raise NotImplementedError

    def configure_optimizers(self):
        raise NotImplementedError

    def on_train_epoch_end(self):
        pass


class MiniTrainer:
    def __init__(self, max_epochs=2):
        self.max_epochs = max_epochs
        self.train_outputs = []
        self.callback_metrics = {}

    def fit(self, module, train_loader, val_loader):
        opt = module.configure_optimizers()
        for epoch in range(self.max_epochs):
            module.train()
            for batch_idx, batch in enumerate(train_loader):
                out = module.training_step(batch, batch_idx)
                opt.zero_grad()
                out["loss"].backward()
                opt.step()
                self.train_outputs.append(out)  # expect: TEN501
            module.on_train_epoch_end()
            module.eval()
            with torch.no_grad():
                val = [module.validation_step(b, i) for i, b in enumerate(val_loader)]
            self.callback_metrics["val_loss"] = torch.stack(val).mean()
        return self
