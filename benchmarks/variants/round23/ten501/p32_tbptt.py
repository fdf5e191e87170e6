"""Truncated BPTT over a long sequence with a detached carried hidden state."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
rnn = nn.LSTM(3, 8, batch_first=True)
head = nn.Linear(8, 1)
opt = torch.optim.Adam(list(rnn.parameters()) + list(head.parameters()), lr=1e-3)
seq = torch.randn(1, 40, 3)
target = seq.sum(-1, keepdim=True)
state = None
h_hist, out_hist = [], []
for start in range(0, 40, 10):
    chunk = seq[:, start:start + 10]
    out, (h, c) = rnn(chunk, state)
    loss = F.mse_loss(head(out), target[:, start:start + 10])
    opt.zero_grad()
    loss.backward()
    opt.step()
    state = (h.detach(), c.detach())
    h_hist.append(state[0])  # ok
    out_hist.append(out)  # expect: TEN501
print(len(h_hist), len(out_hist))
