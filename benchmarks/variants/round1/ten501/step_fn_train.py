"""Regression training where the optimisation step lives in a helper."""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset
from tqdm import tqdm


def build_model(hidden):
    return nn.Sequential(nn.Linear(8, hidden), nn.ReLU(), nn.Linear(hidden, 1))


def train_step(model, optimizer, batch, loss_fn):
    inputs, targets = batch
    optimizer.zero_grad(set_to_none=True)
    preds = model(inputs)
    loss = loss_fn(preds, targets)
    loss.backward()
    optimizer.step()
    return loss


def run(args):
    ds = TensorDataset(torch.randn(80, 8), torch.randn(80, 1))
    dl = DataLoader(ds, batch_size=args.bs)
    model = build_model(args.hidden)
    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    loss_fn = nn.MSELoss()
    history = []
    steps = 0
    for epoch in range(args.epochs):
        running = 0.0
        pbar = tqdm(dl, desc=f"epoch {epoch}", disable=True)
        for batch in pbar:
            loss = train_step(model, opt, batch, loss_fn)
            running += loss  # expect: TEN501
            history.append(loss)  # expect: TEN501
            steps += 1  # ok
            pbar.set_postfix(loss=f"{loss.item():.4f}")
        print(f"epoch {epoch}: mean loss {running / len(dl):.4f} after {steps} steps")
    return history


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--bs", type=int, default=16)
    parser.add_argument("--hidden", type=int, default=32)
    parser.add_argument("--lr", type=float, default=0.01)
    run(parser.parse_args([]))
