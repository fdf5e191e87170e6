"""Learning-rate sweep on a CPU box: every trial starts from the same initial weights."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from .store import restore_weights, snapshot_weights, snapshot_weights_copy


def build(seed=0):
    torch.manual_seed(seed)
    return nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 3))


def run_trial(model, data, lr, steps=300):
    x, y = data
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    for _ in range(steps):
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


def lr_sweep(lrs=(1e-3, 3e-3, 1e-2, 3e-2, 1e-1)):
    model = build()  # stays on the CPU
    x = torch.randn(512, 20)
    y = torch.randint(0, 3, (512,))
    initial = snapshot_weights(model)  # expect: TEN402
    results = {}
    for lr in lrs:
        restore_weights(model, initial)
        results[lr] = run_trial(model, (x, y), lr)
    return results


def lr_sweep_fixed(lrs=(1e-3, 3e-3, 1e-2, 3e-2, 1e-1)):
    model = build()
    x = torch.randn(512, 20)
    y = torch.randint(0, 3, (512,))
    initial = snapshot_weights_copy(model)  # ok
    results = {}
    best_lr, best_loss, best_state = None, float("inf"), None
    for lr in lrs:
        restore_weights(model, initial)
        results[lr] = run_trial(model, (x, y), lr)
        if results[lr] < best_loss:
            best_lr, best_loss = lr, results[lr]
            best_state = snapshot_weights_copy(model)  # ok
    restore_weights(model, best_state)
    return best_lr, results


if __name__ == "__main__":
    print(lr_sweep())
