"""A LightningModule-like class on top of a tiny stand-in base (no lightning install)."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F


class MiniLightningModule(nn.Module):
    """Just enough of the LightningModule surface for this example."""

    def __init__(self):
        super().__init__()
        self._logged = defaultdict(list)
        self.current_epoch = 0

    def log(self, name, value, prog_bar=False):
        self._logged[name].append(value)

    def log_dict(self, metrics):
        for k, v in metrics.items():
            self._logged[k].append(v.detach() if torch.is_tensor(v) else v)


class MiniTrainer:
    def __init__(self, max_epochs=2):
        self.max_epochs = max_epochs

    def fit(self, module, train_batches, val_batches):
        opt = module.configure_optimizers()
        for epoch in range(self.max_epochs):
            module.current_epoch = epoch
            module.train()
            for i, batch in enumerate(train_batches):
                loss = module.training_step(batch, i)
                opt.zero_grad()
                loss.backward()
                opt.step()
            module.on_train_epoch_end()
            module.eval()
            with torch.no_grad():
                for i, batch in enumerate(val_batches):
                    module.validation_step(batch, i)
            module.on_validation_epoch_end()


class LitRegressor(MiniLightningModule):
    def __init__(self, in_features=10):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_features, 16), nn.Tanh(), nn.Linear(16, 1))
        self.training_step_outputs = []
        self.validation_step_outputs = []
        self.epoch_means = []

    def training_step(self, batch, batch_idx):
        x, y = batch
        pred = self.net(x).squeeze(-1)
        loss = F.mse_loss(pred, y)
        mae = (pred - y).abs().mean()
        self.log("train_loss", loss, prog_bar=True)  # expect: TEN501
        self.log_dict({"train_mae": mae, "lr": 1e-2})  # ok
        self.training_step_outputs.append(loss)  # expect: TEN501
        return loss

    def on_train_epoch_end(self):
        epoch_mean = torch.stack(self.training_step_outputs).mean()
        self.epoch_means.append(epoch_mean.item())  # ok
        self.training_step_outputs.clear()

    def validation_step(self, batch, batch_idx):
        x, y = batch
        loss = F.mse_loss(self.net(x).squeeze(-1), y)
        self.validation_step_outputs.append(loss)  # ok
        self.log("val_loss", loss)  # ok

    def on_validation_epoch_end(self):
        avg = torch.stack(self.validation_step_outputs).mean()
        self.log("val_loss_epoch", avg)  # ok
        self.validation_step_outputs.clear()

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-2)


if __name__ == "__main__":
    torch.manual_seed(0)
    w = torch.randn(10)
    batches = []
    for _ in range(5):
        x = torch.randn(8, 10)
        batches.append((x, x @ w + 0.1 * torch.randn(8)))
    module = LitRegressor()
    MiniTrainer(max_epochs=2).fit(module, batches, batches[:2])
    print(module.epoch_means, len(module._logged["train_loss"]))
