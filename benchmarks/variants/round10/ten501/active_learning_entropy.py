"""Pool-based active learning with max-entropy and MC-dropout BALD acquisition."""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Subset

from al.datasets import IndexedCIFAR10
from al.models import resnet18_cifar


def train_model(model, loader, epochs, device, lr=0.05):
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, epochs)
    for epoch in range(epochs):
        model.train()
        train_loss, seen = 0.0, 0
        for x, y, _ in loader:
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            train_loss += loss.item() * x.size(0)  # ok
            seen += x.size(0)
        sched.step()
    return train_loss / max(seen, 1)


def predictive_entropy(model, loader, device):
    model.eval()
    scores = torch.empty(0, device=device)
    indices = []
    for x, _, idx in loader:
        x = x.to(device)
        probs = F.softmax(model(x), dim=1)
        ent = -(probs * torch.log(probs + 1e-12)).sum(dim=1)
        scores = torch.cat([scores, ent])  # expect: TEN501
        indices.append(idx)  # ok
    return scores, torch.cat(indices)


def enable_dropout(model):
    for m in model.modules():
        if isinstance(m, nn.Dropout):
            m.train()


@torch.no_grad()
def bald_scores(model, loader, device, passes=10):
    model.eval()
    enable_dropout(model)
    all_scores, all_idx = [], []
    for x, _, idx in loader:
        x = x.to(device)
        mc_probs = []
        for _ in range(passes):
            mc_probs.append(F.softmax(model(x), dim=-1))  # ok
        p = torch.stack(mc_probs)
        mean_p = p.mean(0)
        h = -(mean_p * torch.log(mean_p + 1e-12)).sum(-1)
        e = -(p * torch.log(p + 1e-12)).sum(-1).mean(0)
        all_scores.append(h - e)  # ok
        all_idx.append(idx)
    return torch.cat(all_scores), torch.cat(all_idx)


@torch.no_grad()
def accuracy(model, loader, device):
    model.eval()
    correct = total = 0
    for x, y, _ in loader:
        pred = model(x.to(device)).argmax(1).cpu()
        correct += (pred == y).sum().item()
        total += y.numel()
    return correct / total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--init", type=int, default=1000)
    ap.add_argument("--budget", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--strategy", choices=["entropy", "bald"], default="entropy")
    ap.add_argument("--epochs", type=int, default=30)
    args = ap.parse_args()

    device = torch.device("cuda")
    train_set = IndexedCIFAR10("data", train=True)
    test_loader = DataLoader(IndexedCIFAR10("data", train=False), batch_size=512)
    rng = np.random.default_rng(0)
    labeled = set(rng.choice(len(train_set), args.init, replace=False).tolist())

    for rnd in range(args.rounds):
        model = resnet18_cifar(num_classes=10).to(device)
        lab_loader = DataLoader(Subset(train_set, sorted(labeled)), batch_size=128, shuffle=True)
        loss = train_model(model, lab_loader, args.epochs, device)
        acc = accuracy(model, test_loader, device)
        print(f"round {rnd}: |L|={len(labeled)} train-loss {loss:.3f} test-acc {acc:.4f}")

        pool = sorted(set(range(len(train_set))) - labeled)
        pool_loader = DataLoader(Subset(train_set, pool), batch_size=512)
        if args.strategy == "entropy":
            scores, idxs = predictive_entropy(model, pool_loader, device)
        else:
            scores, idxs = bald_scores(model, pool_loader, device)
        top = scores.topk(args.budget).indices.cpu()
        labeled.update(idxs[top].tolist())


if __name__ == "__main__":
    main()
