import torch
from torch import nn

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(5, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
X = torch.randn(200, 5)
Y = X[:, :1] * 2 - X[:, 1:2] ** 2 + 0.3 * torch.randn(200, 1)

swa_start, swa_every = 20, 5
collected = []
collected_safe = []
for epoch in range(50):
    for i in range(0, 200, 25):
        xb, yb = X[i:i + 25], Y[i:i + 25]
        opt.zero_grad()
        nn.functional.mse_loss(model(xb), yb).backward()
        opt.step()
    if epoch >= swa_start and (epoch - swa_start) % swa_every == 0:
        collected.append([p.data for p in model.parameters()])  # expect: TEN402
        collected_safe.append([p.detach().clone() for p in model.parameters()])  # ok


def average(snaps):
    return [torch.stack(ts).mean(0) for ts in zip(*snaps)]


def loss_with(weights):
    names = [n for n, _ in model.named_parameters()]
    out = torch.func.functional_call(model, dict(zip(names, weights)), (X,))
    return nn.functional.mse_loss(out, Y).item()


with torch.no_grad():
    print("snapshots", len(collected))
    print(f"final   {nn.functional.mse_loss(model(X), Y).item():.6f}")
    print(f"swa     {loss_with(average(collected)):.6f}")
    print(f"swa ref {loss_with(average(collected_safe)):.6f}")
