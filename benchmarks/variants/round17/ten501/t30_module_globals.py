"""Module-level registries written from helper functions."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

LOSS_LOG = []
STATS = {}
SCALARS = {}


def log_scalar(name, value):
    SCALARS.setdefault(name, []).append(value)


def train_step(model, opt, x, y):
    out = model(x)
    loss = nn.functional.l1_loss(out, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    LOSS_LOG.append(loss)  # expect: TEN501
    STATS["last_loss"] = loss.item()  # ok
    STATS["n_steps"] = STATS.get("n_steps", 0) + 1  # ok
    return loss, out


model = nn.Linear(3, 2)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(9):
    x = torch.randn(5, 3)
    loss, out = train_step(model, opt, x, x[:, :2] * 3)
    log_scalar("loss", loss)  # expect: TEN501
    log_scalar("out_abs", out.detach().abs().mean())  # ok
    log_scalar("loss_float", float(loss))  # ok

print(len(LOSS_LOG), STATS, {k: len(v) for k, v in SCALARS.items()})
