"""Preallocated loss history tensors / arrays written by index."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
N = 6
model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
loss_hist = torch.zeros(N)
loss_hist_det = torch.zeros(N)
loss_hist_item = torch.zeros(N)
arr = np.zeros(N)
objarr = np.empty(N, dtype=object)
grad_hist = torch.zeros(N)
for i in range(N):
    loss = F.mse_loss(model(torch.randn(8, 3)), torch.randn(8, 1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    loss_hist[i] = loss  # expect: TEN501
    loss_hist_det[i] = loss.detach()  # ok
    loss_hist_item[i] = loss.item()  # ok
    arr[i] = loss.item()  # ok
    objarr[i] = loss  # expect: TEN501
    grad_hist[i] = model.weight.grad.abs().sum()  # ok
print(float(loss_hist.sum()), float(loss_hist_det.sum()), float(loss_hist_item.sum()), arr.sum(), float(sum(objarr)), float(grad_hist.sum()))
