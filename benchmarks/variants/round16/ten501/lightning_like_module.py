"""A hand-rolled imitation of the LightningModule / Trainer contract."""
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)


class MiniLightningModule(nn.Module):
    def __init__(self):
        super().__init__()
        self._logged = {}

    def log(self, name, value, prog_bar=False):
        if isinstance(value, torch.Tensor):
            value = value.detach()
        self._logged[name] = value
        if prog_bar:
            print(f"  {name}={float(value):.4f}")


class LitRegressor(MiniLightningModule):
    def __init__(self, in_dim=6, hidden=24, lr=5e-3):
        super().__init__()
        self.lr = lr
        self.model = nn.Sequential(nn.Linear(in_dim, hidden), nn.GELU(), nn.Linear(hidden, 1))
        self.training_step_outputs = []
        self.validation_step_outputs = []
        self.test_step_outputs = []

    def forward(self, x):
        return self.model(x).squeeze(-1)

    def training_step(self, batch, batch_idx):
        x, y = batch
        y_hat = self(x)
        loss = F.mse_loss(y_hat, y)
        self.log("train_loss", loss)  # ok
        self.training_step_outputs.append(loss)  # expect: TEN501
        return loss

    def on_train_epoch_end(self):
        epoch_mean = torch.stack(self.training_step_outputs).mean()
        self.log("train_loss_epoch", epoch_mean, prog_bar=True)  # ok
        self.training_step_outputs.clear()

    def validation_step(self, batch, batch_idx):
        x, y = batch
        loss = F.mse_loss(self(x), y)
        self.validation_step_outputs.append(loss)  # ok

    def on_validation_epoch_end(self):
        avg = torch.stack(self.validation_step_outputs).mean()
        self.log("val_loss", avg, prog_bar=True)
        self.validation_step_outputs.clear()

    def test_step(self, batch, batch_idx):
        x, y = batch
        y_hat = self(x)
        self.test_step_outputs.append({"preds": y_hat, "target": y})  # expect: TEN501

    def on_test_epoch_end(self):
        preds = torch.cat([o["preds"] for o in self.test_step_outputs])
        target = torch.cat([o["target"] for o in self.test_step_outputs])
        self.log("test_mae", (preds - target).abs().mean(), prog_bar=True)
        self.test_step_outputs.clear()

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=self.lr)


class MiniTrainer:
    def __init__(self, max_epochs=2):
        self.max_epochs = max_epochs
        self.global_step = 0
        self.metrics_history = []

    def fit(self, module, train_loader, val_loader):
        optimizer = module.configure_optimizers()
        for epoch in range(self.max_epochs):
            module.train()
            for batch_idx, batch in enumerate(train_loader):
                loss = module.training_step(batch, batch_idx)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                self.global_step += 1
            module.on_train_epoch_end()

            module.eval()
            with torch.no_grad():
                for batch_idx, batch in enumerate(val_loader):
                    module.validation_step(batch, batch_idx)
            module.on_validation_epoch_end()
            self.metrics_history.append(dict(module._logged))  # ok

    def test(self, module, test_loader):
        module.eval()
        for batch_idx, batch in enumerate(test_loader):
            module.test_step(batch, batch_idx)
        module.on_test_epoch_end()
        return dict(module._logged)


def synthetic(n):
    x = torch.randn(n, 6)
    y = x[:, 0] * 2.0 - x[:, 3] + 0.1 * torch.randn(n)
    return TensorDataset(x, y)


if __name__ == "__main__":
    lit = LitRegressor()
    trainer = MiniTrainer(max_epochs=2)
    trainer.fit(lit, DataLoader(synthetic(192), batch_size=32, shuffle=True),
                DataLoader(synthetic(64), batch_size=32))
    print(trainer.test(lit, DataLoader(synthetic(64), batch_size=16)))
