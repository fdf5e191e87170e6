"""A LightningModule-style classifier with a tiny self-contained fit loop."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F


class LitClassifier(nn.Module):
    def __init__(self, in_features, num_classes, hidden=256, lr=1e-3, weight_decay=1e-4):
        super().__init__()
        self.hparams = dict(lr=lr, weight_decay=weight_decay)
        self.net = nn.Sequential(
            nn.Linear(in_features, hidden), nn.BatchNorm1d(hidden), nn.ReLU(), nn.Dropout(0.2),
            nn.Linear(hidden, hidden), nn.BatchNorm1d(hidden), nn.ReLU(), nn.Dropout(0.2),
            nn.Linear(hidden, num_classes),
        )
        self.training_step_outputs = []
        self.validation_step_outputs = []
        self.logged = defaultdict(list)

    def log(self, name, value):
        self.logged[name].append(value)

    def forward(self, x):
        return self.net(x)

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=self.hparams["lr"],
                                 weight_decay=self.hparams["weight_decay"])

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        loss = F.cross_entropy(logits, y)
        self.training_step_outputs.append(loss)  # expect: TEN501
        return loss

    def on_train_epoch_end(self):
        epoch_mean = torch.stack(self.training_step_outputs).mean()
        self.log("train_loss_epoch", epoch_mean.item())
        self.training_step_outputs.clear()

    def validation_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        loss = F.cross_entropy(logits, y)
        preds = logits.argmax(-1)
        self.validation_step_outputs.append({"loss": loss, "preds": preds, "target": y})  # ok

    def on_validation_epoch_end(self):
        outs = self.validation_step_outputs
        loss = torch.stack([o["loss"] for o in outs]).mean()
        preds = torch.cat([o["preds"] for o in outs])
        target = torch.cat([o["target"] for o in outs])
        self.log("val_loss", loss.item())
        self.log("val_acc", (preds == target).float().mean().item())
        self.validation_step_outputs.clear()


def fit(module, train_loader, val_loader, max_epochs=10, device="cpu"):
    module.to(device)
    opt = module.configure_optimizers()
    for epoch in range(max_epochs):
        module.train()
        for batch_idx, (x, y) in enumerate(train_loader):
            batch = (x.to(device), y.to(device))
            loss = module.training_step(batch, batch_idx)
            opt.zero_grad()
            loss.backward()
            opt.step()
        module.on_train_epoch_end()

        module.eval()
        with torch.no_grad():
            for batch_idx, (x, y) in enumerate(val_loader):
                module.validation_step((x.to(device), y.to(device)), batch_idx)
        module.on_validation_epoch_end()
        print(f"epoch {epoch}: train {module.logged['train_loss_epoch'][-1]:.4f} "
              f"val {module.logged['val_loss'][-1]:.4f} acc {module.logged['val_acc'][-1]:.3f}")
    return module


if __name__ == "__main__":
    from sklearn.datasets import make_classification
    from torch.utils.data import DataLoader, TensorDataset

    X, Y = make_classification(n_samples=20000, n_features=64, n_informative=32, n_classes=5)
    X = torch.tensor(X, dtype=torch.float32)
    Y = torch.tensor(Y)
    train_ds = TensorDataset(X[:16000], Y[:16000])
    val_ds = TensorDataset(X[16000:], Y[16000:])
    fit(LitClassifier(64, 5), DataLoader(train_ds, batch_size=128, shuffle=True),
        DataLoader(val_ds, batch_size=512))
