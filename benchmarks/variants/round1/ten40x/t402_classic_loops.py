"""Fine-tuning script with best-epoch selection (several hand-rolled variants)."""
import copy
import time

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def make_loaders(n=256, d=16):
    x = torch.randn(n, d)
    y = (x.sum(1) > 0).long()
    ds = TensorDataset(x, y)
    return DataLoader(ds, batch_size=32, shuffle=True), DataLoader(ds, batch_size=64)


def evaluate(model, loader):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for xb, yb in loader:
            correct += (model(xb).argmax(1) == yb).sum().item()
            total += yb.numel()
    return correct / max(total, 1)


def train_model(model, criterion, optimizer, scheduler, loaders, num_epochs=5):
    since = time.time()
    train_loader, val_loader = loaders
    best_model_wts = model.state_dict()  # expect: TEN402
    best_acc = 0.0
    for epoch in range(num_epochs):
        model.train()
        for inputs, labels in train_loader:
            optimizer.zero_grad()
            loss = criterion(model(inputs), labels)
            loss.backward()
            optimizer.step()
        scheduler.step()
        epoch_acc = evaluate(model, val_loader)
        if epoch_acc > best_acc:
            best_acc = epoch_acc
            best_model_wts = model.state_dict()  # expect: TEN402
    print(f"Training complete in {time.time() - since:.0f}s, best acc {best_acc:.4f}")
    model.load_state_dict(best_model_wts)
    return model


def train_with_optimizer_state(model, loaders, epochs=4):
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    crit = nn.CrossEntropyLoss()
    train_loader, val_loader = loaders
    best = {"acc": -1.0}
    for epoch in range(epochs):
        for xb, yb in train_loader:
            opt.zero_grad()
            crit(model(xb), yb).backward()
            opt.step()
        acc = evaluate(model, val_loader)
        if acc > best["acc"]:
            best["acc"] = acc
            best_opt_state = opt.state_dict()  # expect: TEN402
            best_weights = copy.deepcopy(model.state_dict())  # ok: TEN402
    model.load_state_dict(best_weights)
    opt.load_state_dict(best_opt_state)
    return model, opt


def train_while_patience(model, loaders, patience=3):
    """While-loop early stopping with a lowest-loss snapshot."""
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    crit = nn.CrossEntropyLoss()
    train_loader, val_loader = loaders
    best_loss, bad_epochs, epoch = float("inf"), 0, 0
    best_state = None
    while bad_epochs < patience and epoch < 50:
        model.train()
        for xb, yb in train_loader:
            opt.zero_grad()
            crit(model(xb), yb).backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            val_loss = sum(crit(model(xb), yb).item() for xb, yb in val_loader)
        if val_loss < best_loss:
            best_loss, bad_epochs = val_loss, 0
            best_state = model.state_dict()  # expect: TEN402
        else:
            bad_epochs += 1
        epoch += 1
    if best_state is not None:
        model.load_state_dict(best_state)
    return best_loss


def train_good(model, loaders, epochs=3):
    """Correct variant: deep copy."""
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    crit = nn.CrossEntropyLoss()
    train_loader, val_loader = loaders
    best_acc, best_wts = -1.0, copy.deepcopy(model.state_dict())
    for _ in range(epochs):
        for xb, yb in train_loader:
            opt.zero_grad()
            crit(model(xb), yb).backward()
            opt.step()
        acc = evaluate(model, val_loader)
        if acc > best_acc:
            best_acc = acc
            best_wts = copy.deepcopy(model.state_dict())  # ok: TEN402
    model.load_state_dict(best_wts)
    return model


if __name__ == "__main__":
    net = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 2))
    o = torch.optim.SGD(net.parameters(), lr=0.1)
    s = torch.optim.lr_scheduler.StepLR(o, 2)
    train_model(net, nn.CrossEntropyLoss(), o, s, make_loaders())
    train_with_optimizer_state(net, make_loaders())
    train_while_patience(net, make_loaders())
    train_good(net, make_loaders())
