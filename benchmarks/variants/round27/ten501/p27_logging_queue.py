"""Metrics pushed to a queue that a (here: synchronous) logging worker drains at the end."""
import queue
import torch
import torch.nn as nn

torch.manual_seed(0)

metric_q = queue.Queue()
metric_q_ok = queue.SimpleQueue()
priority_q = queue.PriorityQueue()

model = nn.Sequential(nn.Conv1d(2, 4, 3), nn.ReLU(), nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(4, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(8):
    x = torch.randn(6, 2, 9)
    y = (x.mean((1, 2)) > 0).long()
    logits = model(x)
    loss = nn.functional.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    metric_q.put(("train/loss", step, loss))  # expect: TEN501
    metric_q_ok.put(("train/loss", step, loss.item()))  # ok
    priority_q.put((-loss.item(), step, logits))  # expect: TEN501


def drain(q):
    out = []
    while not q.empty():
        out.append(q.get())
    return out


rows = drain(metric_q)
rows_ok = drain(metric_q_ok)
print(len(rows), round(rows[-1][2].item(), 4), round(rows_ok[-1][2], 4))
print("worst step", priority_q.get()[1])
