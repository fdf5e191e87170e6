"""Stochastic weight averaging with torch.optim.swa_utils; bookkeeping is graph-free."""
import torch
import torch.nn as nn
from torch.optim.swa_utils import SWALR, AveragedModel, update_bn


def run(epochs=4, swa_start=2):
    model = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 1))
    loader = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(3)]
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    swa_model = AveragedModel(model)
    swa_scheduler = SWALR(opt, swa_lr=0.02, anneal_epochs=1)
    losses, swa_updates, lrs = [], 0, []
    for epoch in range(epochs):
        epoch_loss = torch.zeros(())
        for x, y in loader:
            opt.zero_grad()
            loss = nn.functional.mse_loss(model(x), y)
            loss.backward()
            opt.step()
            epoch_loss += loss.detach()  # ok
        losses.append(epoch_loss / len(loader))  # ok
        if epoch >= swa_start:
            swa_model.update_parameters(model)  # ok
            swa_scheduler.step()
            swa_updates += 1  # ok
        lrs.append(opt.param_groups[0]["lr"])  # ok
    update_bn(((x,) for x, _ in loader), swa_model)
    return losses, swa_updates, lrs, swa_model


if __name__ == "__main__":
    torch.manual_seed(0)
    losses, n, lrs, swa_model = run()
    print([round(l.item(), 4) for l in losses], n, lrs)
