"""A tiny hand-rolled Lightning-style module/trainer pair."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F


class LiteModule(nn.Module):
    def __init__(self):
        super().__init__()
        self._logged = defaultdict(list)

    def log(self, name, value):
        self._logged[name].append(value)

    def configure_optimizers(self):
        raise NotImplementedError


class TextClassifier(LiteModule):
    def __init__(self, vocab=20_000, dim=128, n_cls=4):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim)
        self.fc = nn.Linear(dim, n_cls)

    def forward(self, tokens, offsets):
        return self.fc(self.emb(tokens, offsets))

    def training_step(self, batch, batch_idx):
        tokens, offsets, labels = batch
        logits = self(tokens, offsets)
        loss = F.cross_entropy(logits, labels)
        acc = (logits.argmax(-1) == labels).float().mean()
        self.log("train_loss", loss)  # expect: TEN501
        self.log("train_acc", acc)  # ok
        return {"loss": loss, "logits": logits}

    def validation_step(self, batch, batch_idx):
        tokens, offsets, labels = batch
        loss = F.cross_entropy(self(tokens, offsets), labels)
        self.log("val_loss", loss)  # ok
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


class LiteTrainer:
    def __init__(self, max_epochs=3):
        self.max_epochs = max_epochs
        self.epoch_outputs = []

    def fit(self, module, train_loader, val_loader=None):
        opt = module.configure_optimizers()
        for epoch in range(self.max_epochs):
            module.train()
            for i, batch in enumerate(train_loader):
                out = module.training_step(batch, i)
                opt.zero_grad()
                out["loss"].backward()
                opt.step()
                self.epoch_outputs.append(out)  # expect: TEN501
            if val_loader is not None:
                self.validate(module, val_loader)
            mean = torch.stack([o["loss"].detach() for o in self.epoch_outputs]).mean()  # ok
            print(f"epoch {epoch}: {mean.item():.4f}")
            self.epoch_outputs.clear()

    @torch.no_grad()
    def validate(self, module, loader):
        module.eval()
        for i, batch in enumerate(loader):
            module.validation_step(batch, i)
