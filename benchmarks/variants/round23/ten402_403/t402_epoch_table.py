"""Keep a per-epoch table of states, then pick the epoch with the best validation score."""
import io

import torch
import torch.nn as nn


class History:
    def __init__(self):
        self.per_epoch = {}
        self.per_epoch_bytes = {}
        self.scores = {}

    def record(self, epoch, model, score):
        self.per_epoch[epoch] = model.state_dict()  # expect: TEN402
        buf = io.BytesIO()
        torch.save(model.state_dict(), buf)  # ok
        self.per_epoch_bytes[epoch] = buf.getvalue()
        self.scores[epoch] = score

    def best_epoch(self):
        return max(self.scores, key=self.scores.get)


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 3), nn.Sigmoid(), nn.Linear(3, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.5)
hist = History()
x, y = torch.randn(16, 2), torch.randn(16, 1)
for epoch, score in enumerate([0.2, 0.9, 0.5, 0.4]):
    opt.zero_grad()
    nn.functional.mse_loss(model(x), y).backward()
    opt.step()
    hist.record(epoch, model, score)

e = hist.best_epoch()
in_mem = hist.per_epoch[e]
from_bytes = torch.load(io.BytesIO(hist.per_epoch_bytes[e]))
print("best epoch", e)
print("in-memory best checksum: %.6f" % sum(v.sum().item() for v in in_mem.values()))
print("serialized best checksum: %.6f" % sum(v.sum().item() for v in from_bytes.values()))
