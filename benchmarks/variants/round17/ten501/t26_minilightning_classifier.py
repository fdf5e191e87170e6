"""A home-made Lightning-like base class and a classifier built on it."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class MiniModule(nn.Module):
    def __init__(self):
        super().__init__()
        self._logged = defaultdict(list)
        self._train_outputs = []
        self._val_outputs = []

    def log(self, name, value):
        self._logged[name].append(value)

    def fit(self, train_batches, val_batches, epochs=2):
        opt = self.configure_optimizers()
        for epoch in range(epochs):
            self.train()
            for i, batch in enumerate(train_batches):
                out = self.training_step(batch, i)
                opt.zero_grad()
                out["loss"].backward()
                opt.step()
                self._train_outputs.append(out)  # expect: TEN501
            self.eval()
            with torch.no_grad():
                for i, batch in enumerate(val_batches):
                    self._val_outputs.append(self.validation_step(batch, i))  # ok
            self.on_epoch_end()

    def on_epoch_end(self):
        self._val_outputs.clear()


class LitClassifier(MiniModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 3))

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-2)

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits = self.net(x)
        loss = F.cross_entropy(logits, y)
        acc = (logits.argmax(-1) == y).float().mean()
        self.log("train_loss", loss)  # expect: TEN501
        self.log("train_acc", acc)  # ok
        self.log("train_loss_value", loss.item())  # ok
        return {"loss": loss, "n": len(y)}

    def validation_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self.net(x), y)
        self.log("val_loss", loss)  # ok
        return loss


def make(n):
    return [(torch.randn(8, 5), torch.randint(0, 3, (8,))) for _ in range(n)]


model = LitClassifier()
model.fit(make(4), make(2))
print({k: len(v) for k, v in model._logged.items()}, len(model._train_outputs))
