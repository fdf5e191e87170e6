"""Gradient accumulation over micro-batches (simulating a large batch on a small GPU)."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

ACCUM = 4


def main(epochs=2):
    torch.manual_seed(0)
    x = torch.randn(768, 48)
    y = torch.randint(0, 6, (768,))
    loader = DataLoader(TensorDataset(x, y), batch_size=128, shuffle=True)
    model = nn.Sequential(nn.Linear(48, 96), nn.ReLU(), nn.Linear(96, 6))
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

    epoch_total = torch.zeros(())
    for epoch in range(epochs):
        for step, (xb, yb) in enumerate(loader):
            loss_sum = 0.0
            for mx, my in zip(xb.chunk(ACCUM), yb.chunk(ACCUM)):
                micro_loss = F.cross_entropy(model(mx), my)
                loss_sum = loss_sum + micro_loss / ACCUM  # ok
            opt.zero_grad()
            loss_sum.backward()
            opt.step()
            epoch_total += loss_sum  # expect: TEN501
        print(f"epoch {epoch}: cumulative loss {epoch_total.item():.3f}")

    # second variant: backward per micro-batch, only the float is kept
    for epoch in range(epochs):
        seen_loss = 0.0
        for step, (xb, yb) in enumerate(loader):
            opt.zero_grad()
            for mx, my in zip(xb.chunk(ACCUM), yb.chunk(ACCUM)):
                micro_loss = F.cross_entropy(model(mx), my) / ACCUM
                micro_loss.backward()
                seen_loss += micro_loss.item()  # ok
            opt.step()
        print(f"variant epoch {epoch}: mean loss {seen_loss / len(loader):.4f}")


if __name__ == "__main__":
    main()
