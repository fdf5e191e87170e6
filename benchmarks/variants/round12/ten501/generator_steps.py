"""Training loops written as generators that yield per-step results."""
import torch
import torch.nn.functional as F


def train_steps(model, loader, optimizer, device="cpu"):
    model.train()
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        optimizer.zero_grad()
        logits = model(x)
        loss = F.cross_entropy(logits, y)
        loss.backward()
        optimizer.step()
        yield loss


def train_steps_logged(model, loader, optimizer):
    model.train()
    for x, y in loader:
        optimizer.zero_grad()
        logits = model(x)
        loss = F.cross_entropy(logits, y)
        loss.backward()
        optimizer.step()
        yield {"loss": loss.detach(), "acc": (logits.argmax(-1) == y).float().mean()}


def eval_steps(model, loader):
    model.eval()
    for x, y in loader:
        with torch.no_grad():
            loss = F.cross_entropy(model(x), y)
        yield loss


def run(model, train_loader, val_loader, optimizer, epochs=3):
    history = {"train": [], "val": [], "logged": []}
    for epoch in range(epochs):
        for loss in train_steps(model, train_loader, optimizer):
            history["train"].append(loss)  # expect: TEN501
        for val_loss in eval_steps(model, val_loader):
            history["val"].append(val_loss)  # ok
        for out in train_steps_logged(model, train_loader, optimizer):
            history["logged"].append(out)  # ok
    return history


def run_scalar(model, loader, optimizer, epochs=3):
    curves = []
    for epoch in range(epochs):
        losses = [l.item() for l in train_steps(model, loader, optimizer)]  # ok
        curves.append(sum(losses) / len(losses))  # ok
    return curves


def run_materialized(model, loader, optimizer):
    all_losses = list(train_steps(model, loader, optimizer))  # expect: TEN501
    return torch.stack(all_losses).mean().item()
