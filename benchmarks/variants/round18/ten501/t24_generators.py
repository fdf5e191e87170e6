"""Training steps exposed as generators that yield losses / output dicts."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def train_steps(model, opt, batches):
    for step, (xb, yb) in enumerate(batches):
        loss = F.mse_loss(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        yield step, loss


def run_epoch(model, opt, batches):
    for xb, yb in batches:
        out = model(xb)
        loss = F.mse_loss(out, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        yield {"loss": loss, "pred_mean": out.mean()}


model = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
batches = [(torch.randn(5, 3), torch.randn(5, 1)) for _ in range(3)]

streamed = []
streamed_values = []
for step, loss in train_steps(model, opt, batches):
    streamed.append(loss)  # expect: TEN501
    streamed_values.append(loss.item())  # ok

summary = {}
records = []
records_clean = []
for out in run_epoch(model, opt, batches):
    summary.update(out)  # either
    records.append(out)  # expect: TEN501
    records_clean.append({k: v.item() for k, v in out.items()})  # ok

print("streamed:", [round(v, 4) for v in streamed_values], "last:", records_clean[-1])
