import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class WeightAverager:
    def __init__(self, model):
        self.model = model
        self.n = 0
        self.avg = {k: v.detach().clone() for k, v in model.named_parameters()}
        self.avg_ok = {k: v.detach().clone() for k, v in model.named_parameters()}

    def collect(self):
        for name, p in self.model.named_parameters():
            self.avg[name] = (self.avg[name] * self.n + p) / (self.n + 1)  # expect: TEN501
        self.n += 1

    def collect_fixed(self, n):
        with torch.no_grad():
            for name, p in self.model.named_parameters():
                self.avg_ok[name] = (self.avg_ok[name] * n + p) / (n + 1)  # ok


model = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
swa = WeightAverager(model)
for epoch in range(10):
    x = torch.randn(30, 6)
    y = (x[:, 0] > 0).long()
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch >= 2:
        n_before = swa.n
        swa.collect()
        swa.collect_fixed(n_before)
print("loss", round(loss.item(), 4), "swa n", swa.n)
print("avg norm", round(sum(v.norm().item() for v in swa.avg_ok.values()), 4))
