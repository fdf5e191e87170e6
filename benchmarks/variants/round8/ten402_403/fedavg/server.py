import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Subset
from torchvision import datasets, transforms

from fedavg.client import run_round
from fedavg.weights import average_weights, clone_weights, get_weights, set_weights


class CNNMnist(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(1, 32, 5), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(32, 64, 5), nn.ReLU(), nn.MaxPool2d(2),
            nn.Flatten(), nn.Linear(1024, 512), nn.ReLU(), nn.Linear(512, 10),
        )

    def forward(self, x):
        return self.body(x)


def iid_split(n_items, n_clients, rng):
    idx = rng.permutation(n_items)
    return np.array_split(idx, n_clients)


@torch.no_grad()
def evaluate(model, loader, device):
    model.eval()
    hit = n = 0
    for x, y in loader:
        hit += (model(x.to(device)).argmax(1).cpu() == y).sum().item()
        n += y.numel()
    return hit / n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--clients", type=int, default=100)
    ap.add_argument("--frac", type=float, default=0.1)
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument("--local-epochs", type=int, default=5)
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--mu", type=float, default=0.0)
    args = ap.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    rng = np.random.default_rng(1)
    tf = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.1307,), (0.3081,))])
    train = datasets.MNIST("data", True, tf, download=True)
    test_loader = DataLoader(datasets.MNIST("data", False, tf), batch_size=1000)
    shards = iid_split(len(train), args.clients, rng)
    client_loaders = [DataLoader(Subset(train, s.tolist()), batch_size=10, shuffle=True) for s in shards]

    model = CNNMnist().to(device)
    global_weights = clone_weights(get_weights(model))  # ok
    m = max(1, int(args.frac * args.clients))
    for r in range(args.rounds):
        selected = rng.choice(args.clients, m, replace=False)
        updates, sizes = run_round(model, global_weights, client_loaders, selected, args.local_epochs, args.lr, device, args.mu)
        global_weights = average_weights(updates, sizes)
        set_weights(model, global_weights)
        acc = evaluate(model, test_loader, device)
        print(f"round {r:3d}  test acc {acc:.4f}")
    torch.save(global_weights, "fedavg_global.pt")


if __name__ == "__main__":
    main()
