"""Lightning-like module: training_step returns a dict, the loop keeps outputs
for training_epoch_end, and self.log() records metrics."""
import collections
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class MiniLightningModule(nn.Module):
    def __init__(self):
        super().__init__()
        self._logged = collections.defaultdict(list)

    def log(self, name, value, on_step=True):
        self._logged[name].append(value)


class LitClassifier(MiniLightningModule):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(10, 20)
        self.l2 = nn.Linear(20, 3)

    def forward(self, x):
        return self.l2(torch.relu(self.l1(x)))

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits = self(x)
        loss = F.cross_entropy(logits, y)
        acc = (logits.argmax(-1) == y).float().mean()
        self.log("train_loss", loss)  # expect: TEN501
        self.log("train_acc", acc)  # ok
        self.log("train_loss_scalar", loss.item())  # ok
        return {"loss": loss, "logits": logits}

    def training_epoch_end(self, outputs):
        return torch.stack([o["loss"] for o in outputs]).mean()

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.2)


def fit(module, batches, epochs=2):
    opt = module.configure_optimizers()
    epoch_means = []
    detached_outputs = []
    for epoch in range(epochs):
        outputs = []
        for i, batch in enumerate(batches):
            out = module.training_step(batch, i)
            opt.zero_grad()
            out["loss"].backward()
            opt.step()
            outputs.append(out)  # expect: TEN501
            detached_outputs.append({k: v.detach() for k, v in out.items()})  # ok
        epoch_means.append(module.training_epoch_end(outputs).item())
    return epoch_means, detached_outputs


batches = [(torch.randn(12, 10), torch.randint(0, 3, (12,))) for _ in range(6)]
lit = LitClassifier()
means, outs = fit(lit, batches)
print("epoch means", [round(m, 4) for m in means])
print("logged acc", [round(a.item(), 3) for a in lit._logged["train_acc"][-3:]])
print("n detached", len(outs), outs[-1]["logits"].shape)
