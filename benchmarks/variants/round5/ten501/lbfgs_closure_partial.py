"""Two-stage fit: full-batch L-BFGS warm start, then minibatch SGD fine-tuning.

Stage 2 uses functools.partial so the same step function can be reused by the sweep script.
"""
from functools import partial

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
X = torch.linspace(-3, 3, 256).unsqueeze(1)
Y = torch.sin(X) + 0.05 * torch.randn_like(X)

model = nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, 1))

# ---- stage 1: L-BFGS with a closure ----
lbfgs = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=10, history_size=10)
closure_losses = []
lbfgs_hist = []
for outer in range(4):
    def closure():
        lbfgs.zero_grad()
        objective = F.mse_loss(model(X), Y)
        objective.backward()
        closure_losses.append(objective)  # expect: TEN501
        return objective

    value = lbfgs.step(closure)
    lbfgs_hist.append(float(value))  # ok
    print(f"lbfgs outer {outer}: {lbfgs_hist[-1]:.5f} ({len(closure_losses)} closure evals)")


# ---- stage 2: minibatch fine-tuning through a partial ----
def sgd_step(net, optimizer, criterion, xb, yb):
    optimizer.zero_grad()
    pred = net(xb)
    err = criterion(pred, yb)
    err.backward()
    optimizer.step()
    return err


loader = DataLoader(TensorDataset(X, Y), batch_size=32, shuffle=True)
sgd = torch.optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)
step = partial(sgd_step, model, sgd, nn.MSELoss())

acc_err = torch.zeros(())
detached_err = torch.zeros(())
n_seen = 0
for epoch in range(3):
    for xb, yb in loader:
        e = step(xb, yb)
        acc_err = acc_err + e  # expect: TEN501
        detached_err = detached_err + e.detach()  # ok
        n_seen += xb.size(0)
    print(f"sgd epoch {epoch}: running mse {detached_err.item() / (n_seen / 32):.5f}")
