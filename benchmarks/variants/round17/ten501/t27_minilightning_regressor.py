"""Lightning-like base class with a small regressor."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class BaseModule(nn.Module):
    def __init__(self):
        super().__init__()
        self.logged = {}
        self.epoch_outputs = []

    def log(self, name, value, prog_bar=False):
        if isinstance(value, torch.Tensor):
            value = value.detach()
        self.logged.setdefault(name, []).append(value)

    def fit(self, batches, epochs=2):
        opt = self.configure_optimizers()
        for epoch in range(epochs):
            for i, batch in enumerate(batches):
                out = self.training_step(batch, i)
                opt.zero_grad()
                out["loss"].backward()
                opt.step()
                self.epoch_outputs.append({k: v.detach() for k, v in out.items()})  # ok
            self.on_train_epoch_end()

    def on_train_epoch_end(self):
        losses = torch.stack([o["loss"] for o in self.epoch_outputs])
        self.log("epoch_loss", losses.mean())  # ok
        self.epoch_outputs.clear()


class LitRegressor(BaseModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))
        self.train_mse = []

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.05)

    def training_step(self, batch, batch_idx):
        x, y = batch
        pred = self.net(x)
        loss = F.mse_loss(pred, y)
        self.log("train_loss", loss, prog_bar=True)  # ok
        self.log("pred_std", pred.std())  # ok
        self.train_mse.append(loss.detach())  # ok
        return {"loss": loss, "pred_mean": pred.mean()}


batches = []
for _ in range(5):
    x = torch.randn(10, 3)
    batches.append((x, x.sum(1, keepdim=True)))
m = LitRegressor()
m.fit(batches)
print({k: len(v) for k, v in m.logged.items()}, m.logged["epoch_loss"][-1].item())
