"""Snapshots kept as class attributes shared across the experiment."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class Snapshots:
    initial = None
    final = None
    buffers = None


def record_initial(model):
    Snapshots.initial = list(model.parameters())  # expect: TEN402


def record_final(model):
    Snapshots.final = [p.clone() for p in model.parameters()]  # ok


def record_buffers(model):
    Snapshots.buffers = [b.clone() for b in model.buffers()]  # ok


if __name__ == "__main__":
    model = nn.Sequential(nn.Linear(4, 4), nn.BatchNorm1d(4), nn.Linear(4, 1))
    record_initial(model)  # either: TEN402
    record_buffers(model)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.randn(16, 4)
    y = torch.randn(16, 1)
    for _ in range(6):
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    record_final(model)
    with torch.no_grad():
        moved = sum((a - b).abs().sum().item() for a, b in zip(Snapshots.final, Snapshots.initial))
        bmoved = sum((a - b).abs().sum().item() for a, b in zip(model.buffers(), Snapshots.buffers))
    print(f"params moved {moved:.6f} buffers moved {bmoved:.6f}")
