"""Mini Lightning-style loop: training_step returns a dict, the loop collects step outputs."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class LitRegressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, 12), nn.ReLU(), nn.Linear(12, 1))
        self.epoch_summaries = []
        self.pred_means = []

    def training_step(self, batch, batch_idx):
        x, y = batch
        pred = self.net(x)
        loss = F.mse_loss(pred, y)
        self.pred_means.append(pred.mean())  # expect: TEN501
        return {"loss": loss, "pred_mean": pred.mean()}

    def on_train_epoch_end(self, outputs):
        self.epoch_summaries.append(sum(o["loss"] for o in outputs) / len(outputs))  # expect: TEN501

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-2)


class MiniTrainer:
    def __init__(self, max_epochs):
        self.max_epochs = max_epochs

    def fit(self, module, batches):
        opt = module.configure_optimizers()
        for epoch in range(self.max_epochs):
            outputs, outputs_ok = [], []
            for i, batch in enumerate(batches):
                out = module.training_step(batch, i)
                opt.zero_grad()
                out["loss"].backward()
                opt.step()
                outputs.append(out)  # expect: TEN501
                outputs_ok.append({k: v.detach() for k, v in out.items()})  # ok
            module.on_train_epoch_end(outputs)
            print(epoch, round(torch.stack([o["loss"] for o in outputs_ok]).mean().item(), 4))


x = torch.randn(48, 3)
y = (x ** 2).sum(1, keepdim=True)
batches = [(x[i:i + 12], y[i:i + 12]) for i in range(0, 48, 12)]
m = LitRegressor()
MiniTrainer(max_epochs=3).fit(m, batches)
print([round(float(s), 4) for s in m.epoch_summaries])
