"""Training driven by a generator that yields per-step results."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def training_steps(model, opt, n):
    for i in range(n):
        x = torch.randn(5, 3)
        y = x.sum(1, keepdim=True)
        out = model(x)
        loss = F.mse_loss(out, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        yield loss, out


torch.manual_seed(0)
model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
trace = []
outs = ()
sampled = []
for loss, out in training_steps(model, opt, 4):
    trace.append(loss)  # expect: TEN501
    outs += (out,)  # expect: TEN501
for step, (loss, out) in enumerate(training_steps(model, opt, 4)):
    sampled.append(loss.detach())  # ok
print(len(trace), len(outs), len(sampled))
