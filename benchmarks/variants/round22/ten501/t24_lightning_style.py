"""A LightningModule look-alike with a hand-written fit loop."""
import torch
from torch import nn


class LitRegressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, 12), nn.Softplus(), nn.Linear(12, 1))
        self.training_step_outputs = []
        self.validation_step_outputs = []
        self._logged = {}

    def log(self, name, value):
        self._logged.setdefault(name, []).append(value)  # expect: TEN501

    def training_step(self, batch, batch_idx):
        x, y = batch
        preds = self.net(x)
        loss = nn.functional.mse_loss(preds, y)
        self.training_step_outputs.append(loss)  # expect: TEN501
        self.log("train_loss", loss)  # either: TEN501
        return {"loss": loss, "preds": preds}

    def validation_step(self, batch, batch_idx):
        x, y = batch
        vloss = nn.functional.mse_loss(self.net(x), y)
        self.validation_step_outputs.append(vloss)  # ok
        return vloss

    def on_train_epoch_end(self):
        mean = torch.stack(self.training_step_outputs).mean()
        self.training_step_outputs.clear()
        return mean

    def on_validation_epoch_end(self):
        mean = torch.stack(self.validation_step_outputs).mean()
        self.validation_step_outputs.clear()
        return mean

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-2)


def fit(module, train_batches, val_batches, epochs=2):
    opt = module.configure_optimizers()
    outputs, outputs_det, epoch_means = [], [], []
    for epoch in range(epochs):
        module.train()
        for i, batch in enumerate(train_batches):
            out = module.training_step(batch, i)
            opt.zero_grad()
            out["loss"].backward()
            opt.step()
            outputs.append(out)  # expect: TEN501
            outputs_det.append({k: v.detach() for k, v in out.items()})  # ok
        train_mean = module.on_train_epoch_end()
        module.eval()
        with torch.no_grad():
            for i, batch in enumerate(val_batches):
                module.validation_step(batch, i)
        val_mean = module.on_validation_epoch_end()
        epoch_means.append((train_mean.item(), val_mean.item()))  # ok
    return outputs, epoch_means


if __name__ == "__main__":
    torch.manual_seed(0)
    mk = lambda: (lambda x: (x, x.prod(1, keepdim=True)))(torch.randn(10, 3))
    train_b = [mk() for _ in range(5)]
    val_b = [mk() for _ in range(2)]
    lit = LitRegressor()
    outs, means = fit(lit, train_b, val_b)
    print(len(outs), [tuple(round(v, 4) for v in m) for m in means], len(lit._logged["train_loss"]))
