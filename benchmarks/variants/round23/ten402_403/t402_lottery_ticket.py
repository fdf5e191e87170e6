"""Iterative magnitude pruning with rewinding to the initial weights."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def make_net():
    return nn.Sequential(nn.Linear(10, 16), nn.Tanh(), nn.Linear(16, 3))


def train_steps(net, masks, steps=5):
    opt = torch.optim.SGD(net.parameters(), lr=0.2)
    x = torch.randn(64, 10)
    y = torch.randint(0, 3, (64,))
    for _ in range(steps):
        loss = F.cross_entropy(net(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        with torch.no_grad():
            for name, p in net.named_parameters():
                if name in masks:
                    p.mul_(masks[name])


def prune_and_rewind(net, init_weights, rate=0.5):
    masks = {}
    for name, p in net.named_parameters():
        if p.dim() == 2:
            thresh = p.detach().abs().flatten().kthvalue(int(p.numel() * rate)).values
            masks[name] = (p.detach().abs() > thresh).float()
    with torch.no_grad():
        for name, p in net.named_parameters():
            p.copy_(init_weights[name] * masks.get(name, 1.0))
    return masks


torch.manual_seed(0)
net = make_net()
init_weights = {n: p.data for n, p in net.named_parameters()}  # expect: TEN402
masks = {}
for rnd in range(2):
    train_steps(net, masks)
    masks = prune_and_rewind(net, init_weights)
print("rewound net checksum: %.6f" % sum(p.sum().item() for p in net.parameters()))

torch.manual_seed(0)
net2 = make_net()
init_weights2 = {n: p.detach().clone() for n, p in net2.named_parameters()}  # ok
masks2 = {}
for rnd in range(2):
    train_steps(net2, masks2)
    masks2 = prune_and_rewind(net2, init_weights2)
print("rewound net2 checksum: %.6f" % sum(p.sum().item() for p in net2.parameters()))
