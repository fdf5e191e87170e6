"""Assorted per-step bookkeeping in a classifier loop."""
import copy

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

model = nn.Sequential(nn.Linear(6, 10), nn.ReLU(), nn.Linear(10, 3))
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
ema_weight = model[0].weight.detach().clone()

grad_norms, weight_snaps, saliency_maps = [], [], []
pred_hist, text_log, prob_rows = [], [], []
np_outputs, leaf_copies, checkpoints = [], [], []

for step in range(8):
    x = torch.randn(9, 6, requires_grad=True)
    y = torch.randint(0, 3, (9,))
    out = model(x)
    loss = nn.functional.cross_entropy(out, y)
    opt.zero_grad()
    loss.backward()
    grad_norms.append(nn.utils.clip_grad_norm_(model.parameters(), 1.0))  # ok
    opt.step()

    weight_snaps.append(model[0].weight.detach().clone())  # ok
    saliency_maps.append(x.grad.abs().amax(dim=1))  # ok
    pred_hist.append(out.argmax(dim=1))  # ok
    text_log.append(f"step={step} loss={loss:.4f}")  # ok
    prob_rows.extend(out.softmax(-1).tolist())  # ok
    np_outputs.append(out.detach().cpu().numpy())  # ok
    leaf_copies.append(loss.detach().requires_grad_())  # ok
    with torch.no_grad():
        ema_weight.mul_(0.9).add_(0.1 * model[0].weight)  # ok
    if step % 3 == 0:
        checkpoints.append(copy.deepcopy(model.state_dict()))  # ok

print(len(grad_norms), np.stack(np_outputs).shape, text_log[-1], len(checkpoints), ema_weight.requires_grad)
