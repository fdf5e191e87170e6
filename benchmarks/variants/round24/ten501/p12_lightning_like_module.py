"""A miniature LightningModule / Trainer pair: self.log() and epoch-end outputs."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class MiniLightningModule(nn.Module):
    def __init__(self):
        super().__init__()
        self._logged = defaultdict(list)

    def log(self, name, value, prog_bar=False):
        self._logged[name].append(value)


class LitClassifier(MiniLightningModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(12, 24), nn.ReLU(), nn.Linear(24, 4))

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits = self.net(x)
        loss = F.cross_entropy(logits, y)
        acc = (logits.argmax(-1) == y).float().mean()
        self.log("train_loss", loss, prog_bar=True)  # expect: TEN501
        self.log("train_acc", acc)  # ok
        self.log("lr", self.lr)  # ok
        return loss

    def configure_optimizers(self):
        self.lr = 0.05
        return torch.optim.SGD(self.parameters(), lr=self.lr)


class MiniTrainer:
    def __init__(self, max_epochs, keep_graph_outputs):
        self.max_epochs = max_epochs
        self.keep_graph_outputs = keep_graph_outputs

    def fit(self, module, loader):
        opt = module.configure_optimizers()
        for epoch in range(self.max_epochs):
            outputs = []
            for batch_idx, batch in enumerate(loader):
                loss = module.training_step(batch, batch_idx)
                opt.zero_grad()
                loss.backward()
                opt.step()
                if self.keep_graph_outputs:
                    outputs.append({"loss": loss})  # expect: TEN501
                else:
                    outputs.append({"loss": loss.detach()})  # ok
            epoch_mean = torch.stack([o["loss"] for o in outputs]).mean()
            print(epoch, float(epoch_mean))


loader = [(torch.randn(8, 12), torch.randint(0, 4, (8,))) for _ in range(4)]
MiniTrainer(2, keep_graph_outputs=True).fit(LitClassifier(), loader)
MiniTrainer(2, keep_graph_outputs=False).fit(LitClassifier(), loader)
