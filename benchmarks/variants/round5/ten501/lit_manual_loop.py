"""A LightningModule-shaped model driven by a hand-written loop (no pl.Trainer on the cluster)."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class LitClassifier(nn.Module):
    def __init__(self, d_in=32, n_classes=5, lr=1e-3):
        super().__init__()
        self.lr = lr
        self.net = nn.Sequential(nn.Linear(d_in, 64), nn.ReLU(), nn.Linear(64, n_classes))

    def forward(self, x):
        return self.net(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        loss = F.cross_entropy(logits, y)
        acc = (logits.argmax(dim=-1) == y).float().mean()
        return {"loss": loss, "log": {"train_acc": acc}}

    def validation_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        return {"val_loss": F.cross_entropy(logits, y)}

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.lr)


def fit(module, train_loader, val_loader, max_epochs=3):
    opt = module.configure_optimizers()
    for epoch in range(max_epochs):
        step_outputs = []
        accs = []
        module.train()
        for batch_idx, batch in enumerate(train_loader):
            out = module.training_step(batch, batch_idx)
            opt.zero_grad()
            out["loss"].backward()
            opt.step()
            step_outputs.append(out)  # expect: TEN501
            accs.append(out["log"]["train_acc"])  # ok
        train_loss = torch.stack([o["loss"] for o in step_outputs]).mean()

        module.eval()
        val_outs = []
        with torch.no_grad():
            for batch_idx, batch in enumerate(val_loader):
                val_outs.append(module.validation_step(batch, batch_idx))  # ok
        val_loss = torch.stack([o["val_loss"] for o in val_outs]).mean()
        print(f"epoch {epoch}: train_loss={train_loss.item():.4f} "
              f"train_acc={torch.stack(accs).mean().item():.3f} val_loss={val_loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(400, 32)
    y = (x[:, :5].argmax(dim=1))
    train_loader = DataLoader(TensorDataset(x[:320], y[:320]), batch_size=32, shuffle=True)
    val_loader = DataLoader(TensorDataset(x[320:], y[320:]), batch_size=40)
    fit(LitClassifier(), train_loader, val_loader)
