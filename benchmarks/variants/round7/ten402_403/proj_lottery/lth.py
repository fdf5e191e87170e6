"""Iterative magnitude pruning with weight rewinding (lottery ticket hypothesis)."""
import argparse

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

from models import build_model
from pruning import apply_masks, clone_weights, init_masks, prune_global, rewind, snapshot_weights, sparsity


def train(model, masks, loader, iters, lr, device, capture_at=None):
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9, weight_decay=1e-4)
    captured = None
    it = 0
    model.train()
    while it < iters:
        for x, y in loader:
            if capture_at is not None and it == capture_at:
                captured = clone_weights(model)
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            apply_masks(model, masks)
            it += 1
            if it >= iters:
                break
    return captured


@torch.no_grad()
def test(model, loader, device):
    model.eval()
    correct = total = 0
    for x, y in loader:
        correct += (model(x.to(device)).argmax(1).cpu() == y).sum().item()
        total += y.numel()
    return correct / total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--arch", default="lenet300")
    ap.add_argument("--levels", type=int, default=10)
    ap.add_argument("--rate", type=float, default=0.2)
    ap.add_argument("--iters", type=int, default=20000)
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--rewind-iter", type=int, default=0)
    args = ap.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    tf = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.1307,), (0.3081,))])
    train_dl = DataLoader(datasets.MNIST("data", train=True, download=True, transform=tf), batch_size=60, shuffle=True)
    test_dl = DataLoader(datasets.MNIST("data", train=False, transform=tf), batch_size=1000)

    torch.manual_seed(0)
    model = build_model(args.arch).to(device)
    init_state = snapshot_weights(model)  # expect: TEN402
    masks = init_masks(model)
    rewind_state = None

    for level in range(args.levels):
        capture = args.rewind_iter if (level == 0 and args.rewind_iter > 0) else None
        captured = train(model, masks, train_dl, args.iters, args.lr, device, capture_at=capture)
        if captured is not None:
            rewind_state = captured
        acc = test(model, test_dl, device)
        print(f"level {level}: sparsity {sparsity(masks):.3f} test acc {acc:.4f}")

        masks = prune_global(model, masks, args.rate)
        rewind(model, rewind_state if rewind_state is not None else init_state, masks)


if __name__ == "__main__":
    main()
