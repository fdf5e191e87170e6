"""Three evaluation helpers; only some of them actually run without grad."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def evaluate_a(model, batches):
    total = 0.0
    for x, y in batches:
        total += F.mse_loss(model(x), y)  # ok
    return total / len(batches)


def evaluate_b(model, batches):
    model.eval()
    total = 0.0
    for x, y in batches:
        total += F.mse_loss(model(x), y)  # expect: TEN501
    model.train()
    return total / len(batches)


def collect_scores(model, batches):
    model.eval()
    scores = []
    for x, _ in batches:
        scores.append(model(x))  # expect: TEN501
    model.train()
    return torch.cat(scores)


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.1), nn.Linear(8, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
val = [(torch.randn(4, 4), torch.randn(4, 1)) for _ in range(3)]
val_a_hist, val_b_hist = [], []
for epoch in range(3):
    x, y = torch.randn(8, 4), torch.randn(8, 1)
    loss = F.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        val_a_hist.append(evaluate_a(model, val))  # ok
    val_b_hist.append(evaluate_b(model, val))  # expect: TEN501
    scores = collect_scores(model, val)
print(val_a_hist[-1].item(), val_b_hist[-1].item(), scores.shape)
