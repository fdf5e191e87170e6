"""A very small LightningModule / Trainer imitation."""
import torch
import torch.nn as nn


class MiniModule(nn.Module):
    def __init__(self):
        super().__init__()
        self._logged = {}
        self.trainer = None

    def log(self, name, value, prog_bar=False):
        self._logged.setdefault(name, []).append(value)

    def training_step(self, batch, batch_idx):
        raise NotImplementedError

    def validation_step(self, batch, batch_idx):
        pass

    def configure_optimizers(self):
        raise NotImplementedError

    def on_train_epoch_end(self):
        pass

    def on_validation_epoch_end(self):
        pass


class MiniTrainer:
    def __init__(self, max_epochs=2):
        self.max_epochs = max_epochs
        self.current_epoch = 0
        self.lr = None

    def fit(self, module, train_loader, val_loader=None):
        module.trainer = self
        opt = module.configure_optimizers()
        for epoch in range(self.max_epochs):
            self.current_epoch = epoch
            self.lr = opt.param_groups[0]["lr"]
            module.train()
            for i, batch in enumerate(train_loader):
                loss = module.training_step(batch, i)
                opt.zero_grad()
                loss.backward()
                opt.step()
            module.on_train_epoch_end()
            if val_loader is not None:
                module.eval()
                with torch.no_grad():
                    for i, batch in enumerate(val_loader):
                        module.validation_step(batch, i)
                module.on_validation_epoch_end()
        return module
