"""Training steps written as generators that yield per-step results."""
import torch
import torch.nn as nn


def train_steps(model, optimizer, loader, loss_fn):
    for inputs, targets in loader:
        optimizer.zero_grad()
        loss = loss_fn(model(inputs), targets)
        loss.backward()
        optimizer.step()
        yield loss


def train_steps_scalar(model, optimizer, loader, loss_fn):
    for inputs, targets in loader:
        optimizer.zero_grad()
        loss = loss_fn(model(inputs), targets)
        loss.backward()
        optimizer.step()
        yield loss.item()


def train_records(model, optimizer, loader, loss_fn):
    for step, (inputs, targets) in enumerate(loader):
        optimizer.zero_grad()
        preds = model(inputs)
        loss = loss_fn(preds, targets)
        loss.backward()
        optimizer.step()
        yield {"step": step, "loss": loss.detach(), "n": len(inputs), "pred_mean": preds.mean().item()}


def make_loader(n_batches=5):
    g = torch.Generator().manual_seed(1)
    return [(torch.randn(10, 3, generator=g), torch.randn(10, 1, generator=g)) for _ in range(n_batches)]


if __name__ == "__main__":
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    loss_fn = nn.L1Loss()

    history = []
    for loss in train_steps(model, opt, make_loader(), loss_fn):
        history.append(loss)  # expect: TEN501

    history2 = []
    for value in train_steps_scalar(model, opt, make_loader(), loss_fn):
        history2.append(value)  # ok

    records, total_n = [], 0
    for rec in train_records(model, opt, make_loader(), loss_fn):
        records.append(rec)  # ok
        total_n += rec["n"]  # ok

    print(len(history), history2[-1], total_n)
