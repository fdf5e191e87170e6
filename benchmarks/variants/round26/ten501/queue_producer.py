"""Training loop pushes metrics into a queue drained by a 'reporter' at the end."""
import queue

import torch
import torch.nn as nn

torch.manual_seed(0)

model = nn.GRU(4, 8, batch_first=True)
head = nn.Linear(8, 1)
opt = torch.optim.Adam(list(model.parameters()) + list(head.parameters()), lr=1e-2)
metrics_q = queue.Queue()
metrics_q_ok = queue.Queue()
for step in range(8):
    x = torch.randn(5, 7, 4)
    y = x.sum(dim=(1, 2)).unsqueeze(1) * 0.1
    out, h = model(x)
    pred = head(out[:, -1])
    loss = nn.functional.mse_loss(pred, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    metrics_q.put((step, loss))  # expect: TEN501
    metrics_q_ok.put((step, loss.item(), h.detach().norm().item()))  # ok
rows = []
while not metrics_q.empty():
    rows.append(metrics_q.get())
rows_ok = []
while not metrics_q_ok.empty():
    rows_ok.append(metrics_q_ok.get())
print([(s, round(l.item(), 4)) for s, l in rows[-3:]], [(s, round(l, 4)) for s, l, _ in rows_ok[-3:]])
