"""Iterative magnitude pruning with weight rewinding to initialisation."""
import torch
import torch.nn as nn


def make_mlp():
    return nn.Sequential(
        nn.Linear(784, 300), nn.ReLU(),
        nn.Linear(300, 100), nn.ReLU(),
        nn.Linear(100, 10),
    )


def prunable(model):
    return [m.weight for m in model.modules() if isinstance(m, nn.Linear)]


def global_magnitude_masks(weights, masks, rate):
    alive = torch.cat([w.detach().abs()[m.bool()] for w, m in zip(weights, masks)])
    k = int(rate * alive.numel())
    if k == 0:
        return masks
    threshold = alive.kthvalue(k).values
    return [((w.detach().abs() > threshold) & m.bool()).float() for w, m in zip(weights, masks)]


def train_round(model, masks, batches, lr=0.05):
    weights = prunable(model)
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    loss_fn = nn.CrossEntropyLoss()
    for x, y in batches:
        opt.zero_grad()
        loss_fn(model(x), y).backward()
        opt.step()
        with torch.no_grad():
            for w, m in zip(weights, masks):
                w.mul_(m)


def find_ticket(batches, rounds=3, rate=0.2):
    torch.manual_seed(0)
    model = make_mlp()
    weights = prunable(model)
    init_weights = [p.data for p in weights]  # expect: TEN402
    masks = [torch.ones_like(w) for w in weights]
    for r in range(rounds):
        train_round(model, masks, batches)
        masks = global_magnitude_masks(weights, masks, rate)
        # rewind surviving weights to their values at initialisation
        with torch.no_grad():
            for w, w0, m in zip(weights, init_weights, masks):
                w.copy_(w0 * m)
        density = sum(m.sum().item() for m in masks) / sum(m.numel() for m in masks)
        print(f"round {r}: density {density:.3f}")
    return model, masks


if __name__ == "__main__":
    batches = [(torch.randn(8, 784), torch.randint(0, 10, (8,))) for _ in range(3)]
    find_ticket(batches, rounds=2)
