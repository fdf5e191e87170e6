"""A LightningModule-shaped classifier driven by a hand-written fit loop
(training_step / validation_step / epoch-end hooks)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LitClassifier(nn.Module):
    def __init__(self, d_in=20, n_cls=4, lr=1e-3):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(d_in, 64), nn.ReLU(), nn.Linear(64, n_cls))
        self.lr = lr
        self.epoch_loss = 0.0
        self.n_batches = 0
        self.training_step_outputs = []
        self.validation_step_outputs = []
        self.logged = {}

    def forward(self, x):
        return self.backbone(x)

    def log(self, name, value):
        self.logged[name] = value.item() if torch.is_tensor(value) else value

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.lr)

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        loss = F.cross_entropy(logits, y)
        self.epoch_loss += loss  # expect: TEN501
        self.n_batches += 1
        self.training_step_outputs.append({"loss": loss.detach(), "preds": logits.argmax(1)})  # ok
        self.log("train_loss", loss)  # ok
        return loss

    def on_train_epoch_end(self):
        preds = torch.cat([o["preds"] for o in self.training_step_outputs])
        self.log("train_epoch_loss", self.epoch_loss / self.n_batches)
        self.log("train_pred_entropy", torch.bincount(preds).float().div(len(preds)).clamp_min(1e-9).log().neg().mean())
        self.training_step_outputs.clear()
        self.epoch_loss, self.n_batches = 0.0, 0

    def validation_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        self.validation_step_outputs.append((logits, y))  # ok
        return F.cross_entropy(logits, y)

    def on_validation_epoch_end(self):
        logits = torch.cat([o[0] for o in self.validation_step_outputs])
        ys = torch.cat([o[1] for o in self.validation_step_outputs])
        self.log("val_loss", F.cross_entropy(logits, ys))
        self.log("val_acc", (logits.argmax(1) == ys).float().mean())
        self.validation_step_outputs.clear()


def fit(module, train_batches, val_batches, max_epochs=3):
    optimizer = module.configure_optimizers()
    for epoch in range(max_epochs):
        module.train()
        for batch_idx, batch in enumerate(train_batches):
            loss = module.training_step(batch, batch_idx)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        module.on_train_epoch_end()
        module.eval()
        with torch.no_grad():
            for batch_idx, batch in enumerate(val_batches):
                module.validation_step(batch, batch_idx)
            module.on_validation_epoch_end()
        print(f"epoch {epoch}: {module.logged}")


def main():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    w = torch.randn(20, 4, generator=g)

    def make(n):
        out = []
        for _ in range(n):
            x = torch.randn(16, 20, generator=g)
            out.append((x, (x @ w).argmax(1)))
        return out

    fit(LitClassifier(), make(8), make(2))


if __name__ == "__main__":
    main()
