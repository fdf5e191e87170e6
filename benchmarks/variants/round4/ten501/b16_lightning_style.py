"""A tiny Lightning-like module + hand-written fit loop (no pytorch_lightning dependency)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LitClassifier(nn.Module):
    def __init__(self, d_in=20, n_cls=3, lr=1e-3):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, 64), nn.ReLU(), nn.Linear(64, n_cls))
        self.lr = lr
        self.train_outputs = []
        self.val_outputs = []

    def forward(self, x):
        return self.net(x)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.lr)

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        loss = F.cross_entropy(logits, y)
        preds = logits.argmax(dim=1)
        self.train_outputs.append({"loss": loss, "preds": preds, "target": y})  # expect: TEN501
        return loss

    def on_train_epoch_end(self):
        losses = torch.stack([o["loss"] for o in self.train_outputs])
        preds = torch.cat([o["preds"] for o in self.train_outputs])
        tgts = torch.cat([o["target"] for o in self.train_outputs])
        print(f"train loss {losses.mean().item():.4f} acc {(preds == tgts).float().mean().item():.3f}")
        self.train_outputs.clear()

    def validation_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self(x), y)
        self.val_outputs.append(loss)  # ok
        return loss

    def on_validation_epoch_end(self):
        print(f"val loss {torch.stack(self.val_outputs).mean().item():.4f}")
        self.val_outputs.clear()


def fit(module, train_batches, val_batches, max_epochs=3):
    opt = module.configure_optimizers()
    for epoch in range(max_epochs):
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


if __name__ == "__main__":
    mk = lambda n: [(torch.randn(32, 20), torch.randint(0, 3, (32,))) for _ in range(n)]
    fit(LitClassifier(), mk(100), mk(10))
