"""Entry point: python -m lit_style.main"""
import torch

from .base import MiniTrainer
from .model import LitRegressor


def loaders(n=160, dim=5, bs=20):
    w = torch.randn(dim)
    x = torch.randn(n, dim)
    y = torch.sin(x @ w) + 0.05 * torch.randn(n)
    batches = list(zip(x.split(bs), y.split(bs)))
    return batches[:6], batches[6:]


def main():
    torch.manual_seed(0)
    train_loader, val_loader = loaders()
    model = LitRegressor()
    MiniTrainer(max_epochs=3).fit(model, train_loader, val_loader)
    print("train epoch losses", [round(v, 4) for v in model._logged["train_epoch_loss"]])
    print("val means", [round(v.item(), 4) for v in model.epoch_means])


if __name__ == "__main__":
    main()
