"""Single-process imitation of distributed logging helpers (reduce_dict / all_gather)."""
from collections import defaultdict

import torch
import torch.nn as nn

WORLD_SIZE = 1


def get_world_size():
    return WORLD_SIZE


def reduce_dict(input_dict, average=True):
    world_size = get_world_size()
    if world_size < 2:
        return {k: v.detach() for k, v in input_dict.items()}
    with torch.no_grad():
        names = sorted(input_dict.keys())
        values = torch.stack([input_dict[k] for k in names])
        if average:
            values /= world_size
        return dict(zip(names, values))


@torch.no_grad()
def all_gather_tensor(t):
    return [t.clone() for _ in range(get_world_size())]


class SmoothedValue:
    def __init__(self):
        self.values, self.total, self.count = [], 0.0, 0

    def update(self, value, n=1):
        self.values.append(value)
        self.count += n
        self.total += value * n


def train_one_epoch(model, opt, batches, meters, gathered):
    for x, y in batches:
        out = model(x)
        loss_dict = {"mse": nn.functional.mse_loss(out, y), "l1": nn.functional.l1_loss(out, y)}
        losses = sum(loss_dict.values())
        opt.zero_grad()
        losses.backward()
        opt.step()
        reduced = reduce_dict(loss_dict)
        for k, v in reduced.items():
            meters[k].update(v.item(), n=len(x))  # ok
        meters["total"].update(sum(reduced.values()), n=len(x))  # ok
        gathered.extend(all_gather_tensor(out))  # ok


if __name__ == "__main__":
    torch.manual_seed(0)
    model = nn.Linear(4, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    meters, gathered = defaultdict(SmoothedValue), []
    batches = [(torch.randn(6, 4), torch.randn(6, 2)) for _ in range(3)]
    for epoch in range(2):
        train_one_epoch(model, opt, batches, meters, gathered)
    print({k: round(float(m.total) / m.count, 4) for k, m in meters.items()}, len(gathered))
