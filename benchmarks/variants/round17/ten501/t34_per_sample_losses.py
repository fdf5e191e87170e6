"""Tracks per-example losses for hard-example mining."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
torch.set_num_threads(1)


class Indexed(Dataset):
    def __init__(self, n=48):
        self.x = torch.randn(n, 5)
        self.y = (self.x[:, 2] > 0.3).long()

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return i, self.x[i], self.y[i]


class HardExampleTracker:
    def __init__(self):
        self.sample_loss = {}
        self.sample_loss_value = {}
        self.hard = []

    def observe(self, idx, per_sample):
        for i, l in zip(idx.tolist(), per_sample):
            self.sample_loss[i] = l  # expect: TEN501
        for i, l in zip(idx.tolist(), per_sample.detach()):
            self.sample_loss_value[i] = l.item()  # ok
        k = min(2, len(idx))
        self.hard.extend(idx[per_sample.topk(k).indices].tolist())  # ok


model = nn.Linear(5, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
tracker = HardExampleTracker()
loader = DataLoader(Indexed(), batch_size=12, shuffle=True)
for epoch in range(2):
    for idx, xb, yb in loader:
        per_sample = F.cross_entropy(model(xb), yb, reduction="none")
        weights = per_sample.detach() / per_sample.detach().sum()
        loss = (weights * per_sample).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
        tracker.observe(idx, per_sample)

print(len(tracker.sample_loss), len(tracker.hard))
