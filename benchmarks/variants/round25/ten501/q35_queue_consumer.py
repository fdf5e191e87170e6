"""Producer/consumer style: the training loop puts metrics on a queue a reporter drains per epoch."""
import queue

import torch
import torch.nn as nn

torch.manual_seed(0)


class Reporter:
    def __init__(self):
        self.q = queue.Queue()
        self.epoch_means = []

    def drain(self):
        vals = []
        while True:
            try:
                vals.append(self.q.get_nowait())
            except queue.Empty:
                break
        self.epoch_means.append(sum(float(v) for v in vals) / len(vals))


model = nn.Linear(5, 2)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
reporter = Reporter()
pending = queue.Queue()
pending_ok = queue.Queue()
recent_first = queue.LifoQueue()

for epoch in range(3):
    for it in range(5):
        x = torch.randn(16, 5)
        loss = nn.functional.cross_entropy(model(x), (x[:, 0] > 0).long())
        opt.zero_grad()
        loss.backward()
        opt.step()
        reporter.q.put(loss.item())  # ok
        pending.put(loss)  # expect: TEN501
        pending_ok.put_nowait(loss.detach())  # ok
        recent_first.put((epoch, it, loss))  # expect: TEN501
    reporter.drain()
    print(epoch, round(reporter.epoch_means[-1], 4), pending.qsize(), pending_ok.qsize())
