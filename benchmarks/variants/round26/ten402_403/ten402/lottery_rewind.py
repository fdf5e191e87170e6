import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

net = nn.Sequential(nn.Linear(12, 48), nn.ReLU(), nn.Linear(48, 4))
X = torch.randn(256, 12)
Y = (X[:, :4].argmax(1))

theta_init = {n: p.detach() for n, p in net.named_parameters() if p.dim() > 1}  # expect: TEN402
masks = {n: torch.ones_like(p) for n, p in net.named_parameters() if p.dim() > 1}


def train(steps=80):
    opt = torch.optim.SGD(net.parameters(), lr=0.2)
    for _ in range(steps):
        opt.zero_grad()
        F.cross_entropy(net(X), Y).backward()
        opt.step()
        with torch.no_grad():
            for n, p in net.named_parameters():
                if n in masks:
                    p.mul_(masks[n])


def acc():
    with torch.no_grad():
        return (net(X).argmax(1) == Y).float().mean().item()


for rnd in range(3):
    train()
    print(f"round {rnd} acc {acc():.4f} density {sum(m.sum() for m in masks.values()).item() / sum(m.numel() for m in masks.values()):.3f}")
    trained = {n: p.detach().clone() for n, p in net.named_parameters()}  # ok
    with torch.no_grad():
        for n, m in masks.items():
            alive = trained[n].abs()[m.bool()]
            thr = alive.quantile(0.3)
            masks[n] = m * (trained[n].abs() > thr).float()
        for n, p in net.named_parameters():
            if n in theta_init:
                p.copy_(theta_init[n] * masks[n])
    print(f"  after rewind: weight norm {sum(p.norm() for n, p in net.named_parameters() if n in masks).item():.6f}")
