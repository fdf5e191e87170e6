"""Per-step list of chunk outputs that is reset each step but escapes into an epoch dict."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Linear(4, 4)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
epoch_store = {}
epoch_store_ok = {}
for step in range(4):
    x = torch.randn(8, 4)
    batch_outs = []
    for chunk in x.split(4):
        o = model(chunk)
        batch_outs.append(o)  # ok
    out = torch.cat(batch_outs)
    loss = F.mse_loss(out, x.flip(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    epoch_store[step] = batch_outs  # expect: TEN501
    epoch_store_ok[step] = [o.detach() for o in batch_outs]  # ok
print(len(epoch_store), len(epoch_store_ok))
