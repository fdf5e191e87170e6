"""Iterative magnitude pruning with weight rewinding on MNIST (LeNet-300-100).

Small enough to run on a laptop CPU; no accelerator is used.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torchvision import datasets, transforms


class LeNet300(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(784, 300)
        self.fc2 = nn.Linear(300, 100)
        self.fc3 = nn.Linear(100, 10)

    def forward(self, x):
        x = x.flatten(1)
        return self.fc3(F.relu(self.fc2(F.relu(self.fc1(x)))))


def apply_masks(model, masks):
    with torch.no_grad():
        for name, p in model.named_parameters():
            if name in masks:
                p.mul_(masks[name])


def prune_by_magnitude(model, masks, rate):
    new_masks = {}
    for name, p in model.named_parameters():
        if name not in masks:
            continue
        alive = p.detach().abs()[masks[name].bool()]
        k = int(rate * alive.numel())
        thresh = alive.kthvalue(max(k, 1)).values
        new_masks[name] = masks[name] * (p.detach().abs() > thresh).float()
    return new_masks


def train(model, masks, loader, epochs, lr=1.2e-3):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    model.train()
    for _ in range(epochs):
        for x, y in loader:
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            apply_masks(model, masks)


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    correct = sum((model(x).argmax(-1) == y).sum().item() for x, y in loader)
    return correct / len(loader.dataset)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--rate", type=float, default=0.2)
    parser.add_argument("--epochs", type=int, default=5)
    args = parser.parse_args()

    torch.manual_seed(0)
    tfm = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.1307,), (0.3081,))])
    train_loader = torch.utils.data.DataLoader(datasets.MNIST("data", train=True, download=True, transform=tfm),
                                               batch_size=60, shuffle=True)
    test_loader = torch.utils.data.DataLoader(datasets.MNIST("data", train=False, transform=tfm), batch_size=1000)

    model = LeNet300()
    rewind_point = {k: v.cpu() for k, v in model.state_dict().items()}  # expect: TEN402
    masks = {n: torch.ones_like(p) for n, p in model.named_parameters() if n.endswith("weight")}

    for round_idx in range(args.rounds):
        train(model, masks, train_loader, args.epochs)
        acc = evaluate(model, test_loader)
        density = sum(m.sum().item() for m in masks.values()) / sum(m.numel() for m in masks.values())
        print(f"round {round_idx}: density={density:.3f} acc={acc:.4f}")
        torch.save(model.state_dict(), f"ticket_round{round_idx}.pt")  # ok

        masks = prune_by_magnitude(model, masks, args.rate)
        model.load_state_dict(rewind_point)
        apply_masks(model, masks)


if __name__ == "__main__":
    main()
