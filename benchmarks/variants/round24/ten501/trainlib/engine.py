"""Train / eval loops."""
import torch
import torch.nn.functional as F

from . import history


def train_one_epoch(model, loader, optimizer, meters):
    model.train()
    for x, y in loader:
        out = model(x)
        loss = F.cross_entropy(out, y)
        optimizer.zero_grad()
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 2.0)
        optimizer.step()
        acc = (out.argmax(1) == y).float().mean()
        meters["loss"].update(loss, x.size(0))  # expect: TEN501
        meters["acc"].update(acc.item(), x.size(0))  # ok
        history.record("grad_norm", norm)  # ok
        history.record("loss", loss)  # expect: TEN501
        history.record("loss_value", loss.item())  # ok


def evaluate(model, loader):
    model.eval()
    total = 0.0
    for x, y in loader:
        total = total + F.cross_entropy(model(x), y, reduction="sum")
    return total / sum(len(y) for _, y in loader)


@torch.no_grad()
def evaluate_safe(model, loader):
    return evaluate(model, loader)
