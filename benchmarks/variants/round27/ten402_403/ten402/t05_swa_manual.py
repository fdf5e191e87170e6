import torch
import torch.nn as nn

torch.manual_seed(0)

net = nn.Sequential(nn.Linear(3, 12), nn.ReLU(), nn.Linear(12, 1))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
X = torch.randn(200, 3)
Y = (X ** 2).sum(1, keepdim=True)

snapshots = []
snapshots_ok = []
for epoch in range(20):
    perm = torch.randperm(200)
    for i in range(0, 200, 25):
        idx = perm[i:i + 25]
        opt.zero_grad()
        nn.functional.mse_loss(net(X[idx]), Y[idx]).backward()
        opt.step()
    if epoch >= 10 and epoch % 2 == 0:
        snapshots.append([p.data for p in net.parameters()])  # expect: TEN402
        snapshots_ok.append([p.data.clone() for p in net.parameters()])  # ok


def averaged(snaps):
    return [torch.stack(ws).mean(0) for ws in zip(*snaps)]


def evaluate(params):
    w1, b1, w2, b2 = params
    h = torch.relu(X @ w1.t() + b1)
    return nn.functional.mse_loss(h @ w2.t() + b2, Y).item()


with torch.no_grad():
    print(f"final  {evaluate([p for p in net.parameters()]):.5f}")
    print(f"swa    {evaluate(averaged(snapshots)):.5f}")
    print(f"swa_ok {evaluate(averaged(snapshots_ok)):.5f}")
    spread = torch.stack([s[0] for s in snapshots]).std(0).mean().item()
print(f"spread of snapshot weights {spread:.6f}")
