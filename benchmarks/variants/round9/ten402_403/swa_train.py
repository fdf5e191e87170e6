"""Stochastic weight averaging on top of a converged checkpoint.

Two flavours: torch.optim.swa_utils for the real run, and a hand-rolled running
average that is handy when the model does not like being deep-copied.
"""
import argparse
import copy

import torch
import torch.nn.functional as F
from torch.optim.swa_utils import SWALR, AveragedModel, update_bn


def train_steps(model, optimizer, loader_iter, steps, device):
    model.train()
    for _ in range(steps):
        x, y = next(loader_iter)
        x, y = x.to(device), y.to(device)
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()


def running_average(model, optimizer, loader_iter, n_snapshots, steps_between, device):
    """Average ``n_snapshots`` points along the trajectory, ``steps_between`` steps apart."""
    running = {k: v.detach().clone().float() for k, v in model.state_dict().items() if v.is_floating_point()}  # ok
    for i in range(1, n_snapshots):
        train_steps(model, optimizer, loader_iter, steps_between, device)
        current = model.state_dict()  # ok
        for k, acc in running.items():
            acc.mul_(i / (i + 1)).add_(current[k].float(), alpha=1.0 / (i + 1))
    return running


def cycle(loader):
    while True:
        for batch in loader:
            yield batch


def swa(model, train_loader, device, epochs=10, swa_lr=0.05, out="swa.pt"):
    model.to(device)
    pre_swa = copy.deepcopy(model.state_dict())  # ok
    optimizer = torch.optim.SGD(model.parameters(), lr=swa_lr, momentum=0.9, weight_decay=5e-4)
    swa_model = AveragedModel(model)
    scheduler = SWALR(optimizer, swa_lr=swa_lr, anneal_epochs=2, anneal_strategy="cos")
    it = cycle(train_loader)
    for epoch in range(epochs):
        train_steps(model, optimizer, it, len(train_loader), device)
        swa_model.update_parameters(model)
        scheduler.step()

    update_bn(train_loader, swa_model, device=device)
    averaged = swa_model.module.state_dict()
    moved = sum(
        (averaged[k].float() - pre_swa[k].float()).pow(2).sum().item()
        for k in averaged
        if averaged[k].is_floating_point()
    ) ** 0.5
    print(f"SWA solution is {moved:.3f} away (L2) from the starting checkpoint")
    torch.save(swa_model.module.state_dict(), out)  # ok
    return swa_model


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--ckpt", required=True)
    ap.add_argument("--epochs", type=int, default=10)
    args = ap.parse_args()
    from torchvision import datasets, models, transforms

    net = models.resnet18(num_classes=10)
    net.load_state_dict(torch.load(args.ckpt, map_location="cpu"))
    ds = datasets.CIFAR10("data", train=True, download=True, transform=transforms.ToTensor())
    dl = torch.utils.data.DataLoader(ds, batch_size=128, shuffle=True, num_workers=4)
    swa(net, dl, torch.device("cuda" if torch.cuda.is_available() else "cpu"), epochs=args.epochs)
