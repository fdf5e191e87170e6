"""Training written as generators that yield per-batch losses, plus a running-average coroutine."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def batches(x, y, bs, shuffle=True):
    idx = torch.randperm(len(x)) if shuffle else torch.arange(len(x))
    for i in range(0, len(x), bs):
        j = idx[i:i + bs]
        yield x[j], y[j]


def train_iter(model, opt, x, y, bs=32):
    model.train()
    for xb, yb in batches(x, y, bs):
        loss = F.binary_cross_entropy_with_logits(model(xb).squeeze(1), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        yield loss


def train_iter_records(model, opt, x, y, bs=32):
    for step, (xb, yb) in enumerate(batches(x, y, bs)):
        logits = model(xb).squeeze(1)
        loss = F.binary_cross_entropy_with_logits(logits, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        yield {"step": step, "loss": loss.item(), "pos_rate": (logits > 0).float().mean().item()}


def running_average():
    total, n, avg = 0.0, 0, None
    while True:
        value = yield avg
        total = total + value
        n += 1
        avg = total / n


x = torch.randn(256, 8)
y = ((x[:, 0] - x[:, 3]) > 0).float()
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
model2 = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
opt2 = torch.optim.Adam(model2.parameters(), lr=1e-2)

epoch_losses, all_losses, log = [], [], []
avg = running_average()
next(avg)
avg_ok = running_average()
next(avg_ok)
for epoch in range(3):
    for loss in train_iter(model, opt, x, y):
        epoch_losses.append(loss)  # expect: TEN501
        avg.send(loss)  # expect: TEN501
        avg_ok.send(loss.item())  # ok
    all_losses.extend(train_iter(model, opt, x, y))  # expect: TEN501
    for rec in train_iter_records(model2, opt2, x, y):
        log.append(rec)  # ok
    print(f"epoch {epoch}: mean loss {torch.stack(epoch_losses[-8:]).mean().item():.4f} "
          f"model2 {sum(r['loss'] for r in log[-8:]) / 8:.4f}")

print("running avg:", float(avg.send(torch.tensor(0.0))), "ok:", avg_ok.send(0.0))
print("extended:", len(all_losses), torch.stack(all_losses).mean().item())
