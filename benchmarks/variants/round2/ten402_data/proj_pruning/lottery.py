"""Iterative magnitude pruning with weight rewinding (lottery ticket)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from .weights import frozen_copy, magnitude_masks, strip_prefix, trainable_weights


class Wrapper(nn.Module):
    """Stands in for DistributedDataParallel: parameters under `module.`."""

    def __init__(self, module):
        super().__init__()
        self.module = module

    def forward(self, x):
        return self.module(x)


def train(model, x, y, steps=5):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(steps):
        opt.zero_grad()
        F.mse_loss(model(x), y).backward()
        opt.step()


def find_ticket(net, x, y, rounds=2):
    wrapped = Wrapper(net)
    rewind_point = strip_prefix(wrapped.state_dict())  # expect: TEN402
    masks = {}
    for r in range(rounds):
        train(wrapped, x, y)
        masks = magnitude_masks(net)
        with torch.no_grad():
            for name, p in net.named_parameters():
                if name in masks:
                    p.copy_(rewind_point[name] * masks[name])
                else:
                    p.copy_(rewind_point[name])
    return masks


def find_ticket_ok(net, x, y, rounds=2):
    rewind_point = frozen_copy(net)  # ok
    for r in range(rounds):
        train(net, x, y)
        masks = magnitude_masks(net)
        with torch.no_grad():
            for name, p in net.named_parameters():
                p.copy_(rewind_point[name] * masks.get(name, 1.0))


def late_rewind(net, x, y, rewind_step=2):
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    early = None
    for step in range(6):
        opt.zero_grad()
        F.mse_loss(net(x), y).backward()
        opt.step()
        if step == rewind_step:
            early = trainable_weights(net)  # expect: TEN402
    masks = magnitude_masks(net)
    net.load_state_dict({k: v * masks.get(k, 1.0) for k, v in early.items()}, strict=False)


def export_for_inference(net, path):
    # keys renamed for a deployment format and saved at once: no bug
    sd = strip_prefix(Wrapper(net).state_dict())  # ok
    torch.save(sd, path)


if __name__ == "__main__":
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
    x, y = torch.randn(16, 4), torch.randn(16, 1)
    init = {k: v.clone() for k, v in net.state_dict().items()}
    find_ticket(net, x, y, rounds=1)
    masks = magnitude_masks(net)
    # with a live rewind point, surviving weights are the trained ones, not the init ones
    w = net[0].weight.detach()
    nz = w != 0
    print("rewound to init?", torch.allclose(w[nz], init["0.weight"][nz]))
