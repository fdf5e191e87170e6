"""Histories kept as growing tensors, and snapshots of weights."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Linear(3, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
hist = torch.empty(0, 2)
hist_ok = torch.empty(0, 2)
targets_all = torch.empty(0, 2)
w_hist, w_hist_ok = [], []
for it in range(4):
    x, y = torch.randn(5, 3), torch.randn(5, 2)
    out = model(x)
    loss = F.mse_loss(out, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    hist = torch.cat((hist, out))  # expect: TEN501
    hist_ok = torch.cat((hist_ok, out.detach()))  # ok
    targets_all = torch.cat((targets_all, y))  # ok
    w_hist.append(model.weight.clone())  # expect: TEN501
    w_hist_ok.append(model.weight.detach().clone())  # ok
print(hist.shape, hist_ok.shape, targets_all.shape, len(w_hist), len(w_hist_ok))
