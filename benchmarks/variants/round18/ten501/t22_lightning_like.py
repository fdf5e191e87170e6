"""A LightningModule look-alike driven by a minimal Trainer (no lightning installed)."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class MiniLightningModule(nn.Module):
    def __init__(self):
        super().__init__()
        self._logged = defaultdict(list)
        self._prog_bar = {}

    def log(self, name, value, prog_bar=False, on_step=True, on_epoch=False):
        self._logged[name].append(value)
        if prog_bar:
            self._prog_bar[name] = value

    def on_train_epoch_end(self):
        pass

    def on_validation_epoch_end(self):
        pass


class MiniTrainer:
    def __init__(self, max_epochs=2):
        self.max_epochs = max_epochs

    def fit(self, module, train_batches, val_batches):
        opt = module.configure_optimizers()
        for epoch in range(self.max_epochs):
            module.train()
            for batch_idx, batch in enumerate(train_batches):
                loss = module.training_step(batch, batch_idx)
                opt.zero_grad()
                loss.backward()
                opt.step()
            module.on_train_epoch_end()
            module.eval()
            with torch.no_grad():
                for batch_idx, batch in enumerate(val_batches):
                    module.validation_step(batch, batch_idx)
            module.on_validation_epoch_end()


class LitClassifier(MiniLightningModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 3))
        self.training_step_outputs = []
        self.validation_step_outputs = []
        self.epoch_means = []

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits = self.net(x)
        loss = F.cross_entropy(logits, y)
        acc = (logits.argmax(dim=1) == y).float().mean()
        self.log("train_loss", loss)  # expect: TEN501
        self.log("train_acc", acc)  # ok
        self.training_step_outputs.append(loss)  # expect: TEN501
        return loss

    def on_train_epoch_end(self):
        epoch_mean = torch.stack(self.training_step_outputs).mean()
        self.epoch_means.append(epoch_mean.item())  # ok
        self.training_step_outputs.clear()

    def validation_step(self, batch, batch_idx):
        x, y = batch
        val_loss = F.cross_entropy(self.net(x), y)
        self.validation_step_outputs.append(val_loss)  # ok
        self.log("val_loss", val_loss, prog_bar=True)  # ok

    def on_validation_epoch_end(self):
        mean_val = torch.stack(self.validation_step_outputs).mean()
        self.log("val_loss_epoch", mean_val.item())  # ok
        self.validation_step_outputs.clear()

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-2)


train = [(torch.randn(8, 5), torch.randint(0, 3, (8,))) for _ in range(3)]
val = [(torch.randn(8, 5), torch.randint(0, 3, (8,))) for _ in range(2)]
lit = LitClassifier()
MiniTrainer(max_epochs=2).fit(lit, train, val)
print("epoch means:", [round(v, 4) for v in lit.epoch_means], "val:", [round(v, 4) for v in lit._logged["val_loss_epoch"]])
