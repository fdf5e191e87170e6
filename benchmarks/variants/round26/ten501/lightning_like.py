"""Lightning-style module + mini trainer: training_step outputs collected for epoch end."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class LitClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(12, 24), nn.GELU(), nn.Linear(24, 3))
        self._logged = defaultdict(list)
        self.training_step_outputs = []
        self.validation_step_outputs = []

    def log(self, name, value):
        self._logged[name].append(value)

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits = self.backbone(x)
        loss = F.cross_entropy(logits, y)
        self.log("train_loss", loss)  # expect: TEN501
        self.log("train_acc", (logits.argmax(-1) == y).float().mean())  # ok
        self.training_step_outputs.append({"loss": loss, "logits": logits})  # expect: TEN501
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        logits = self.backbone(x)
        loss = F.cross_entropy(logits, y)
        self.validation_step_outputs.append(loss.detach())  # ok
        self.log("val_loss_f", loss.item())  # ok

    def on_train_epoch_end(self):
        losses = torch.stack([o["loss"] for o in self.training_step_outputs])
        print("train epoch mean loss", round(losses.mean().item(), 4))

    def on_validation_epoch_end(self):
        v = torch.stack(self.validation_step_outputs).mean()
        print("val mean loss", round(v.item(), 4))
        self.validation_step_outputs.clear()

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.2)


class MiniTrainer:
    def __init__(self, max_epochs):
        self.max_epochs = max_epochs

    def fit(self, module, train_batches, val_batches):
        opt = module.configure_optimizers()
        for _ in range(self.max_epochs):
            module.train()
            for idx, batch in enumerate(train_batches):
                loss = module.training_step(batch, idx)
                opt.zero_grad()
                loss.backward()
                opt.step()
            module.on_train_epoch_end()
            module.eval()
            for idx, batch in enumerate(val_batches):
                module.validation_step(batch, idx)
            module.on_validation_epoch_end()


xs = torch.randn(120, 12)
ys = (xs[:, 0] > 0).long() + (xs[:, 1] > 0.5).long()
train_b = [(xs[i:i + 20], ys[i:i + 20]) for i in range(0, 80, 20)]
val_b = [(xs[i:i + 20], ys[i:i + 20]) for i in range(80, 120, 10)]
m = LitClassifier()
MiniTrainer(max_epochs=2).fit(m, train_b, val_b)
print({k: len(v) for k, v in m._logged.items()})
