"""Iterative magnitude pruning with rewinding to initialization (LTH)."""
import argparse
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader
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


def prune_by_percentile(model, masks, percent):
    new_masks = {}
    for name, p in model.named_parameters():
        if name not in masks:
            continue
        w = p.detach().abs()
        alive = w[masks[name].bool()]
        threshold = torch.quantile(alive.float(), percent / 100.0)
        new_masks[name] = torch.where(w <= threshold, torch.zeros_like(w), masks[name])
    return new_masks


@torch.no_grad()
def apply_masks(model, masks):
    for name, p in model.named_parameters():
        if name in masks:
            p.mul_(masks[name])


def train(model, masks, loader, optimizer, device):
    model.train()
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        optimizer.zero_grad()
        F.cross_entropy(model(x), y).backward()
        for name, p in model.named_parameters():
            if name in masks:
                p.grad.mul_(masks[name])
        optimizer.step()


@torch.no_grad()
def test(model, loader, device):
    model.eval()
    correct = sum((model(x.to(device)).argmax(1).cpu() == y).sum().item() for x, y in loader)
    return correct / len(loader.dataset)


def sparsity(masks):
    total = sum(m.numel() for m in masks.values())
    return 1.0 - sum(m.sum().item() for m in masks.values()) / total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--prune-percent", type=float, default=20.0)
    ap.add_argument("--lr", type=float, default=1.2e-3)
    args = ap.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    tf = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.1307,), (0.3081,))])
    train_loader = DataLoader(datasets.MNIST("data", True, tf, download=True), batch_size=60, shuffle=True)
    test_loader = DataLoader(datasets.MNIST("data", False, tf), batch_size=1000)

    torch.manual_seed(0)
    model = LeNet300().to(device)
    init_state = copy.copy(model.state_dict())  # expect: TEN402
    masks = {n: torch.ones_like(p) for n, p in model.named_parameters() if n.endswith("weight")}

    results = []
    for round_idx in range(args.rounds):
        optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
        for epoch in range(args.epochs):
            train(model, masks, train_loader, optimizer, device)
        acc = test(model, test_loader, device)
        print(f"round {round_idx}: sparsity {sparsity(masks):.3f} acc {acc:.4f}")
        results.append({"round": round_idx, "acc": acc, "state": copy.deepcopy(model.state_dict())})  # ok
        torch.save({"masks": masks, "state": model.state_dict()}, f"lth_round{round_idx}.pt")  # ok

        masks = prune_by_percentile(model, masks, args.prune_percent)
        model.load_state_dict(init_state)
        apply_masks(model, masks)

    best = max(results, key=lambda r: r["acc"])
    print(f"best round {best['round']} acc {best['acc']:.4f}")


if __name__ == "__main__":
    main()
