"""Epoch-level model selection for a small classifier, three ways of keeping the winner."""
import copy

import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(9, 24), nn.BatchNorm1d(24), nn.ReLU())
        self.head = nn.Linear(24, 3)

    def forward(self, x):
        return self.head(self.body(x))


def accuracy(model, x, y):
    model.eval()
    with torch.no_grad():
        acc = (model(x).argmax(-1) == y).float().mean().item()
    model.train()
    return acc


def select(strategy, epochs=10):
    torch.manual_seed(0)
    x, y = torch.randn(150, 9), torch.randint(0, 3, (150,))
    xv, yv = torch.randn(90, 9), torch.randint(0, 3, (90,))
    model = Net()
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    best_acc, best_model, best_epoch = -1.0, None, -1
    for epoch in range(epochs):
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        acc = accuracy(model, xv, yv)
        if acc > best_acc:
            best_acc, best_epoch = acc, epoch
            if strategy == "alias":
                best_model = model  # expect: TEN402
            elif strategy == "deepcopy":
                best_model = copy.deepcopy(model)  # ok
            else:
                best_model = Net()
                best_model.load_state_dict(model.state_dict())  # ok
    reported = accuracy(best_model, xv, yv)
    print(f"[{strategy}] best epoch {best_epoch} acc {best_acc:.3f}; re-evaluated winner acc {reported:.3f}")
    return best_model


def describe(model):
    layout = model.state_dict()  # ok
    n_params = sum(v.numel() for k, v in layout.items() if not k.endswith("num_batches_tracked"))
    buffers = [k for k in layout if "running" in k]
    return n_params, buffers


if __name__ == "__main__":
    for strategy in ("alias", "deepcopy", "rebuild"):
        winner = select(strategy)
    print("winner layout:", describe(winner))
