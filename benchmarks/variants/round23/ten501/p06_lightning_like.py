"""A LightningModule look-alike with self.log() and a hand-rolled fit loop."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F


class LitRegressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(5, 12), nn.GELU(), nn.Linear(12, 1))
        self._logged = defaultdict(list)
        self.training_outputs = []

    def log(self, name, value):
        self._logged[name].append(value)

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.smooth_l1_loss(self.net(x), y)
        self.log("train_loss", loss)  # expect: TEN501
        self.log("lr", self.trainer_lr)  # ok
        self.training_outputs.append({"loss": loss, "idx": batch_idx})  # expect: TEN501
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        loss = F.smooth_l1_loss(self.net(x), y)
        self.log("val_loss", loss)  # ok
        return loss

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.05)


class MiniTrainer:
    def __init__(self, max_epochs):
        self.max_epochs = max_epochs

    def fit(self, module, train_batches, val_batches):
        opt = module.configure_optimizers()
        for epoch in range(self.max_epochs):
            module.train()
            for i, batch in enumerate(train_batches):
                module.trainer_lr = opt.param_groups[0]["lr"]
                loss = module.training_step(batch, i)
                opt.zero_grad()
                loss.backward()
                opt.step()
            module.eval()
            with torch.no_grad():
                for i, batch in enumerate(val_batches):
                    module.validation_step(batch, i)


if __name__ == "__main__":
    torch.manual_seed(0)
    batches = [(torch.randn(4, 5), torch.randn(4, 1)) for _ in range(3)]
    lit = LitRegressor()
    MiniTrainer(max_epochs=2).fit(lit, batches, batches[:2])
    print({k: len(v) for k, v in lit._logged.items()}, len(lit.training_outputs))
