"""Train a small classifier and ship the best-epoch weights."""
import argparse
import shutil
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F

from checkpointing import BestModelTracker, save_checkpoint


def get_data(seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(300, 16, generator=g)
    y = (x[:, :4].sum(1) + 0.7 * torch.randn(300, generator=g) > 0).long()
    return (x[:200], y[:200]), (x[200:], y[200:])


@torch.no_grad()
def accuracy(model, x, y):
    model.eval()
    return (model(x).argmax(1) == y).float().mean().item()


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--lr", type=float, default=0.1)
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--save-every", type=int, default=10)
    args = ap.parse_args(argv)

    torch.manual_seed(0)
    (xtr, ytr), (xva, yva) = get_data()
    xtr, ytr, xva, yva = (t.to(args.device) for t in (xtr, ytr, xva, yva))
    model = nn.Sequential(nn.Linear(16, 128), nn.ReLU(), nn.Linear(128, 2)).to(args.device)
    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    tracker = BestModelTracker(mode="max")
    ckpt_dir = tempfile.mkdtemp()
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(xtr.shape[0], device=args.device)
        for i in range(0, xtr.shape[0], 20):
            idx = perm[i:i + 20]
            opt.zero_grad()
            F.cross_entropy(model(xtr[idx]), ytr[idx]).backward()
            opt.step()
        acc = accuracy(model, xva, yva)
        tracker.update(model, acc, epoch)
        if (epoch + 1) % args.save_every == 0:
            save_checkpoint(model, opt, epoch, ckpt_dir)
    shutil.rmtree(ckpt_dir, ignore_errors=True)
    final_acc = accuracy(model, xva, yva)
    best_epoch = tracker.restore(model)
    print(f"final acc {final_acc:.3f}; best {tracker.best_metric:.3f} at epoch {best_epoch}; "
          f"restored acc {accuracy(model, xva, yva):.3f}")
    return model, tracker


if __name__ == "__main__":
    main()
