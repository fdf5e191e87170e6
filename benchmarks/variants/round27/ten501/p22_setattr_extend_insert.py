"""Assorted container idioms: setattr on a namespace, list.extend/insert, dict.update."""
import types
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

enc = nn.Linear(6, 6)
dec = nn.Linear(6, 6)
opt = torch.optim.Adam(list(enc.parameters()) + list(dec.parameters()), lr=1e-2)
ns = types.SimpleNamespace()
ns_ok = types.SimpleNamespace()
term_log, term_log_ok, recent = [], [], []
best = {}

for step in range(8):
    x = torch.randn(10, 6)
    z = enc(x)
    rec = dec(torch.tanh(z))
    rec_loss = F.mse_loss(rec, x)
    sparsity = z.abs().mean()
    loss = rec_loss + 0.1 * sparsity
    opt.zero_grad()
    loss.backward()
    opt.step()
    setattr(ns, f"loss_{step}", loss)  # expect: TEN501
    setattr(ns_ok, f"loss_{step}", loss.item())  # ok
    term_log.extend([rec_loss, sparsity])  # expect: TEN501
    term_log_ok.extend([rec_loss.item(), sparsity.item()])  # ok
    recent.insert(0, loss.detach())  # ok
    best.update({step: rec_loss})  # expect: TEN501

print(len(vars(ns)), round(ns.loss_7.item(), 4), round(ns_ok.loss_7, 4))
print(round(term_log[-2].item(), 4), round(term_log_ok[-2], 4), round(recent[0].item(), 4))
print(min(best, key=lambda k: best[k].item()))
