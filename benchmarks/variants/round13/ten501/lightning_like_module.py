"""A LightningModule-flavoured classifier driven by a minimal hand-rolled fit loop."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F


class LitClassifier(nn.Module):
    def __init__(self, in_dim=16, n_classes=4, lr=1e-2):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, 32), nn.ReLU(), nn.Linear(32, n_classes))
        self.lr = lr
        self.logged = defaultdict(list)
        self.training_step_outputs = []
        self.validation_step_outputs = []
        self.epoch_summaries = []

    def log(self, name, value, prog_bar=False):
        # mimics the real API surface; keeps whatever it is given
        self.logged[name].append(value)

    def forward(self, x):
        return self.net(x)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.lr)

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        loss = F.cross_entropy(logits, y)
        acc = (logits.argmax(-1) == y).float().mean()
        self.log("train_loss", loss, prog_bar=True)  # expect: TEN501
        self.log("train_acc", acc)  # ok
        self.training_step_outputs.append({"loss": loss, "n": len(y)})  # expect: TEN501
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        loss = F.cross_entropy(logits, y)
        self.log("val_loss", loss)  # ok
        self.validation_step_outputs.append(loss)  # ok

    def on_train_epoch_end(self):
        outs = self.training_step_outputs
        total = sum(o["loss"] * o["n"] for o in outs)
        count = sum(o["n"] for o in outs)
        self.epoch_summaries.append(total / count)  # expect: TEN501
        self.log("epoch_count", count)  # ok
        self.training_step_outputs.clear()

    def on_validation_epoch_end(self):
        mean_val = torch.stack(self.validation_step_outputs).mean()
        self.log("val_loss_epoch", mean_val)  # ok
        self.validation_step_outputs.clear()


class TinyTrainer:
    def __init__(self, max_epochs=2):
        self.max_epochs = max_epochs

    def fit(self, module, train_batches, val_batches):
        opt = module.configure_optimizers()
        for _ in range(self.max_epochs):
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


def fake_loader(n_batches, bs=8, in_dim=16, n_classes=4):
    return [(torch.randn(bs, in_dim), torch.randint(0, n_classes, (bs,))) for _ in range(n_batches)]


if __name__ == "__main__":
    torch.manual_seed(0)
    lit = LitClassifier()
    TinyTrainer(max_epochs=3).fit(lit, fake_loader(4), fake_loader(2))
    print({k: len(v) for k, v in lit.logged.items()})
