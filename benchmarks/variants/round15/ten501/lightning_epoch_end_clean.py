"""Lightning-style module (stand-in base) that stores detached step outputs."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LightningModuleStub(nn.Module):
    def __init__(self):
        super().__init__()
        self.logged = {}

    def log(self, name, value):
        self.logged.setdefault(name, []).append(float(value))


def fit(module, train_batches, val_batches, epochs=2):
    opt = module.configure_optimizers()
    for _ in range(epochs):
        module.train()
        for i, b in enumerate(train_batches):
            loss = module.training_step(b, i)
            opt.zero_grad()
            loss.backward()
            opt.step()
        module.on_train_epoch_end()
        module.eval()
        with torch.inference_mode():
            for i, b in enumerate(val_batches):
                module.validation_step(b, i)
        module.on_validation_epoch_end()


class LitClassifier(LightningModuleStub):
    def __init__(self):
        super().__init__()
        self.model = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 3))
        self.train_outputs, self.val_preds, self.epoch_acc = [], [], []
        self.last_logits = None

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits = self.model(x)
        loss = F.cross_entropy(logits, y)
        self.log("train_loss", loss)  # ok
        self.train_outputs.append({"loss": loss.detach(), "correct": (logits.argmax(1) == y).sum()})  # ok
        self.last_logits = logits  # either
        return loss

    def on_train_epoch_end(self):
        correct = sum(o["correct"] for o in self.train_outputs)
        self.epoch_acc.append(correct.item() / (len(self.train_outputs) * 8))  # ok
        self.train_outputs.clear()

    def validation_step(self, batch, batch_idx):
        x, y = batch
        self.val_preds.append(self.model(x).argmax(1) == y)  # ok

    def on_validation_epoch_end(self):
        self.log("val_acc", torch.cat(self.val_preds).float().mean())  # ok
        self.val_preds.clear()

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-2)


if __name__ == "__main__":
    torch.manual_seed(0)
    batches = [(torch.randn(8, 6), torch.randint(0, 3, (8,))) for _ in range(4)]
    m = LitClassifier()
    fit(m, batches, batches[:2])
    print(m.epoch_acc, m.logged["val_acc"])
