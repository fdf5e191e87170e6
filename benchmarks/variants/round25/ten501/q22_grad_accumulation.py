import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

ACCUM = 4
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
data = torch.randn(160, 16)
target = torch.randint(0, 4, (160,))


def micro_batches(x, y, size=10):
    for i in range(0, len(x), size):
        yield x[i:i + size], y[i:i + size]


def train_epoch():
    accum_loss = 0.0
    epoch_total = 0.0
    logged = []
    micro_losses = []
    n_updates = 0
    for i, (xb, yb) in enumerate(micro_batches(data, target)):
        loss = F.cross_entropy(model(xb), yb) / ACCUM
        accum_loss = accum_loss + loss  # ok
        epoch_total = epoch_total + loss  # expect: TEN501
        micro_losses.append(loss)  # expect: TEN501
        if (i + 1) % ACCUM == 0:
            opt.zero_grad()
            accum_loss.backward()
            opt.step()
            logged.append(accum_loss.item())  # ok
            accum_loss = 0.0
            n_updates += 1
    return float(epoch_total) / n_updates, logged


for epoch in range(2):
    mean_loss, logged = train_epoch()
    print(epoch, round(mean_loss, 4), [round(v, 3) for v in logged])
