import torch
import torch.nn.functional as F

from .core import LitModule


class LitClassifier(LitModule):
    def __init__(self, d_in=16, n_cls=4):
        super().__init__()
        self.net = torch.nn.Sequential(torch.nn.Linear(d_in, 32), torch.nn.ReLU(), torch.nn.Linear(32, n_cls))
        self.training_step_outputs = []
        self.epoch_means = []

    def forward(self, x):
        return self.net(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        loss = F.cross_entropy(logits, y)
        self.log("train_loss", loss)  # either
        self.training_step_outputs.append(loss)  # either
        return {"loss": loss, "logits": logits}

    def validation_step(self, batch, batch_idx):
        x, y = batch
        return F.cross_entropy(self(x), y)

    def on_train_epoch_end(self):
        mean = torch.stack(self.training_step_outputs).mean()
        self.epoch_means.append(mean.detach())  # ok
        self.training_step_outputs.clear()

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)
