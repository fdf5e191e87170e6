"""Autoencoder training entry point."""
import argparse
import logging

import torch

from evaluate import evaluate
from model import AutoEncoder
from steps import train_step

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
logger = logging.getLogger("ae")


def main():
    parser = argparse.ArgumentParser(description="AE")
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=16)
    args = parser.parse_args([])
    data = torch.randn(64, 32)
    train_loader = list(data.split(args.batch_size))
    val_loader = list(torch.randn(32, 32).split(args.batch_size))
    model = AutoEncoder()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(args.epochs):
        model.train()
        running = 0.0
        running_fixed = 0.0
        recons = []
        for batch in train_loader:
            loss, recon = train_step(model, batch, optimizer)
            running += loss  # expect: TEN501
            running_fixed += loss.item()  # ok
            recons.append(recon)  # expect: TEN501
        with torch.no_grad():
            val = evaluate(model, val_loader)
        logger.info("epoch %d train %.4f val %.4f (%d recons)", epoch, running_fixed / len(train_loader), val.item(), len(recons))


if __name__ == "__main__":
    main()
