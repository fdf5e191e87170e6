"""Hidden-state history for a tiny RNN, updated with tuple assignments."""
import torch
import torch.nn as nn

torch.manual_seed(0)

cell = nn.GRUCell(3, 4)
B, K = 2, 3
hist = torch.zeros(B, K, 4)
hist_ok = torch.zeros(B, K, 4)
h = torch.zeros(B, 4)
decay = torch.ones(B, 1)
decay_ok = torch.ones(B, 1)
with torch.no_grad():
    for t in range(5):
        h = cell(torch.randn(B, 3), h)
        hist[:, 1:], decay = hist[:, :-1], decay * 0.9  # expect: TEN403
        hist[:, 0], _ = h, None  # ok
        hist_ok[:, 1:], decay_ok = hist_ok[:, :-1].clone(), decay_ok * 0.9  # ok
        hist_ok[:, 0] = h
print("history (in-place)  ", [round(v, 4) for v in hist.sum(-1).flatten().tolist()])
print("history (cloned)    ", [round(v, 4) for v in hist_ok.sum(-1).flatten().tolist()])
print("decay", decay.flatten().tolist())
