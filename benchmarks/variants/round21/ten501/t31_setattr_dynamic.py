"""Dynamic attribute bookkeeping with setattr/getattr over a dict of loss terms."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class Namespace:
    pass


class MultiTermTracker:
    def __init__(self, names):
        self.names = names
        self.hist = Namespace()
        self.scalars = Namespace()
        self._sums = {}
        for n in names:
            setattr(self.scalars, n, [])

    def update(self, terms):
        for name, value in terms.items():
            setattr(self, f"last_{name}", value)  # either
            setattr(self.hist, name, getattr(self.hist, name, []) + [value])  # expect: TEN501
            setattr(self.scalars, name, getattr(self.scalars, name) + [value.item()])  # ok
            self._sums[name] = self._sums.get(name, 0.0) + value  # expect: TEN501

    def mean(self, name):
        return self._sums[name] / len(getattr(self.scalars, name))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(10, 16)
        self.cls = nn.Linear(16, 3)
        self.rec = nn.Linear(16, 10)

    def forward(self, x):
        h = torch.relu(self.enc(x))
        return self.cls(h), self.rec(h), h


x = torch.randn(180, 10)
y = (x[:, 0] > 0).long() + (x[:, 1] > 0).long()
model = Net()
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
tracker = MultiTermTracker(["ce", "recon", "sparsity"])
for epoch in range(3):
    for i in range(0, 180, 30):
        xb, yb = x[i:i + 30], y[i:i + 30]
        logits, recon, h = model(xb)
        terms = {"ce": F.cross_entropy(logits, yb), "recon": F.mse_loss(recon, xb), "sparsity": h.abs().mean()}
        loss = terms["ce"] + 0.5 * terms["recon"] + 0.01 * terms["sparsity"]
        opt.zero_grad()
        loss.backward()
        opt.step()
        tracker.update(terms)

print("means:", {n: round(float(tracker.mean(n)), 4) for n in tracker.names})
print("hist lengths:", {n: len(getattr(tracker.hist, n)) for n in tracker.names},
      "last ce:", float(tracker.last_ce), "recon trend:", [round(v, 3) for v in tracker.scalars.recon[::6]])
