import torch
import torch.nn as nn

torch.manual_seed(0)


def prune_layer_(layer, amount):
    w = layer.weight.data
    k = int(amount * w.numel())
    thr = w.abs().flatten().kthvalue(k).values
    w.mul_((w.abs() > thr).float())


net = nn.Sequential(nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 4))
X = torch.randn(50, 16)
with torch.no_grad():
    ref_out = net(X)

orig = {n: p.data for n, p in net.named_parameters() if n.endswith("weight")}  # expect: TEN402
before = {n: p.detach().clone() for n, p in net.named_parameters() if n.endswith("weight")}  # ok
for amount in (0.3, 0.5, 0.7):
    for m in net:
        if isinstance(m, nn.Linear):
            prune_layer_(m, amount)
    with torch.no_grad():
        out_err = (net(X) - ref_out).abs().mean().item()
    for n, p in net.named_parameters():
        if n in orig:
            removed = (orig[n] - p.data).norm().item()
            removed_ok = (before[n] - p.data).norm().item()
            print(f"amount {amount} {n}: removed {removed:.5f} vs {removed_ok:.5f}")
    print(f"amount {amount}: output error {out_err:.5f}")
