"""Regression module written against the mini framework."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from .base import MiniModule


class LitRegressor(MiniModule):
    def __init__(self, in_dim=5, hidden=32, lr=1e-2):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Linear(hidden, 1))
        self.lr = lr
        self.training_step_outputs = []
        self.validation_step_outputs = []
        self.epoch_means = []

    def forward(self, x):
        return self.net(x).squeeze(-1)

    def training_step(self, batch, batch_idx):
        x, y = batch
        pred = self(x)
        loss = F.mse_loss(pred, y)
        self.log("train_loss", loss, prog_bar=True)  # expect: TEN501
        self.log("lr", self.trainer.lr)  # ok
        self.training_step_outputs.append(loss)  # expect: TEN501
        return loss

    def on_train_epoch_end(self):
        epoch_mean = torch.stack(self.training_step_outputs).mean()
        self.log("train_epoch_loss", epoch_mean.item())  # ok
        self.training_step_outputs.clear()

    def validation_step(self, batch, batch_idx):
        x, y = batch
        val_loss = F.mse_loss(self(x), y)
        self.log("val_loss", val_loss)  # ok
        self.validation_step_outputs.append(val_loss)  # ok

    def on_validation_epoch_end(self):
        mean = torch.stack(self.validation_step_outputs).mean()
        self.epoch_means.append(mean)  # ok
        self.validation_step_outputs.clear()

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.lr)
