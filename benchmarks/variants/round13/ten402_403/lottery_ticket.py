"""Iterative magnitude pruning with weight rewinding (lottery-ticket style)."""
import torch
from torch import nn
import torch.nn.functional as F


class MaskedMLP(nn.Module):
    def __init__(self, sizes=(12, 24, 24, 2)):
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:]))
        for i, layer in enumerate(self.layers):
            self.register_buffer(f"mask{i}", torch.ones_like(layer.weight))

    def masks(self):
        return [getattr(self, f"mask{i}") for i in range(len(self.layers))]

    def forward(self, x):
        for i, (layer, m) in enumerate(zip(self.layers, self.masks())):
            x = F.linear(x, layer.weight * m, layer.bias)
            if i < len(self.layers) - 1:
                x = F.relu(x)
        return x


def train(model, data, steps, lr=0.05, hook=None):
    x, y = data
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    for step in range(steps):
        opt.zero_grad()
        F.cross_entropy(model(x), y).backward()
        opt.step()
        if hook is not None:
            hook(step)


@torch.no_grad()
def prune_by_magnitude(model, fraction):
    for layer, mask in zip(model.layers, model.masks()):
        alive = layer.weight[mask.bool()].abs()
        k = int(fraction * alive.numel())
        if k == 0:
            continue
        threshold = alive.kthvalue(k).values
        mask.mul_((layer.weight.abs() > threshold).float())


def find_ticket(rounds=3, steps=30, rewind_step=None, seed=0):
    torch.manual_seed(seed)
    x = torch.randn(128, 12)
    y = (x[:, :6].sum(1) > x[:, 6:].sum(1)).long()
    model = MaskedMLP()
    init_state = model.state_dict()  # expect: TEN402
    rewind = {}

    def remember(step):
        if step == rewind_step and not rewind:
            rewind.update({k: v.clone() for k, v in model.state_dict().items() if "mask" not in k})  # ok

    for r in range(rounds):
        train(model, (x, y), steps, hook=remember)
        prune_by_magnitude(model, 0.3)
        masks = [m.clone() for m in model.masks()]  # ok
        target = rewind if rewind else {k: v for k, v in init_state.items() if "mask" not in k}
        model.load_state_dict(target, strict=False)
        for m, saved in zip(model.masks(), masks):
            m.copy_(saved)
    train(model, (x, y), steps)
    with torch.no_grad():
        acc = (model(x).argmax(1) == y).float().mean().item()
    density = sum(m.sum().item() for m in model.masks()) / sum(m.numel() for m in model.masks())
    return model, acc, density


if __name__ == "__main__":
    _, acc, density = find_ticket()
    print(f"rewind-to-init ticket: acc={acc:.3f} density={density:.3f}")
    _, acc, density = find_ticket(rewind_step=5)
    print(f"late-rewind ticket:    acc={acc:.3f} density={density:.3f}")
