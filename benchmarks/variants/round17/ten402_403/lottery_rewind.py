"""Lottery-ticket style magnitude pruning with weight rewinding."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def make_net():
    return nn.Sequential(nn.Linear(12, 48), nn.ReLU(), nn.Linear(48, 4))


def train(net, x, y, steps, masks=None):
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    for _ in range(steps):
        opt.zero_grad()
        F.cross_entropy(net(x), y).backward()
        opt.step()
        if masks:
            with torch.no_grad():
                for name, p in net.named_parameters():
                    if name in masks:
                        p.mul_(masks[name])  # ok


def magnitude_masks(net, keep=0.3):
    masks = {}
    for name, p in net.named_parameters():
        if p.dim() == 2:
            thresh = p.abs().flatten().kthvalue(int((1 - keep) * p.numel())).values
            masks[name] = (p.abs() > thresh).float()
    return masks


def lottery_round(how):
    torch.manual_seed(4)
    net = make_net()
    if how == "shallow":
        init_sd = copy.copy(net.state_dict())  # expect: TEN402
    else:
        init_sd = copy.deepcopy(net.state_dict())  # ok
    x = torch.randn(256, 12)
    y = (x[:, :4] * torch.arange(1.0, 5.0)).argmax(1)
    train(net, x, y, 40)
    masks = magnitude_masks(net)
    net.load_state_dict(init_sd)
    with torch.no_grad():
        for name, p in net.named_parameters():
            if name in masks:
                p.mul_(masks[name])
    train(net, x, y, 40, masks)
    with torch.no_grad():
        return (net(x).argmax(1) == y).float().mean().item()


if __name__ == "__main__":
    for how in ("shallow", "deep"):
        print(how, "rewind ticket accuracy", round(lottery_round(how), 3))
