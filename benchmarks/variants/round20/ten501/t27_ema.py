"""Mean-teacher / EMA weights and smoothed loss curves."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

student = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))
opt = torch.optim.SGD(student.parameters(), lr=0.1)
decay = 0.9

ema_state = {n: p.detach().clone() for n, p in student.named_parameters()}
ema_state_ok = {n: p.detach().clone() for n, p in student.named_parameters()}
ema_model = copy.deepcopy(student)
for p in ema_model.parameters():
    p.requires_grad_(False)

smooth = None
smooth_ok = None
for step in range(12):
    x = torch.randn(16, 4)
    y = (x[:, 0] * x[:, 1] > 0).long()
    loss = F.cross_entropy(student(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()

    for name, p in student.named_parameters():
        ema_state[name] = decay * ema_state[name] + (1 - decay) * p  # expect: TEN501
    with torch.no_grad():
        for name, p in student.named_parameters():
            ema_state_ok[name] = decay * ema_state_ok[name] + (1 - decay) * p  # ok
        for pe, ps in zip(ema_model.parameters(), student.parameters()):
            pe.mul_(decay).add_(ps, alpha=1 - decay)  # ok
    smooth = loss if smooth is None else 0.9 * smooth + 0.1 * loss  # expect: TEN501
    smooth_ok = loss.item() if smooth_ok is None else 0.9 * smooth_ok + 0.1 * loss.item()  # ok

w_bad = ema_state["0.weight"]
w_ok = ema_state_ok["0.weight"]
print("ema diff", round(float((w_bad - w_ok).abs().max()), 6), w_bad.grad_fn is not None)
print("ema model", round(float((ema_model[0].weight - w_ok).abs().max()), 6))
print("smooth", round(float(smooth), 4), round(smooth_ok, 4))
