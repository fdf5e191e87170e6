import argparse
import math

import torch
import torch.nn as nn


def build_model(in_dim, hidden, out_dim):
    return nn.Sequential(
        nn.Linear(in_dim, hidden),
        nn.GELU(),
        nn.LayerNorm(hidden),
        nn.Linear(hidden, out_dim),
    )


def train_step(model, batch, optimizer, loss_fn, clip=1.0):
    inputs, targets = batch
    optimizer.zero_grad(set_to_none=True)
    preds = model(inputs)
    loss = loss_fn(preds, targets)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
    optimizer.step()
    return loss


def make_batches(n, bs, in_dim, out_dim):
    for _ in range(n):
        x = torch.randn(bs, in_dim)
        yield x, x[:, :out_dim].sin() + 0.1 * torch.randn(bs, out_dim)


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--steps", type=int, default=200)
    p.add_argument("--lr", type=float, default=1e-3)
    return p.parse_args()


def main():
    args = parse_args()
    model = build_model(16, 64, 4)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    loss_fn = nn.MSELoss()

    best = math.inf
    for epoch in range(args.epochs):
        epoch_losses = []
        for batch in make_batches(args.steps, 32, 16, 4):
            loss = train_step(model, batch, optimizer, loss_fn)
            epoch_losses.append(loss)  # expect: TEN501
        mean_loss = torch.stack(epoch_losses).mean().item()
        if mean_loss < best:
            best = mean_loss
            torch.save(model.state_dict(), "/tmp/reg_best.pt")
        print(f"epoch {epoch}: mean loss {mean_loss:.5f} (best {best:.5f})")


if __name__ == "__main__":
    main()
