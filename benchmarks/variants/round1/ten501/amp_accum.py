"""Mixed precision + gradient accumulation training loop."""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def get_args():
    ap = argparse.ArgumentParser()
    ap.add_argument("--accum", type=int, default=2)
    ap.add_argument("--epochs", type=int, default=2)
    return ap.parse_args([])


def main():
    args = get_args()
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = nn.Sequential(nn.Linear(24, 48), nn.GELU(), nn.Linear(48, 1)).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    scaler = torch.amp.GradScaler(device, enabled=(device == "cuda"))
    loader = DataLoader(TensorDataset(torch.randn(96, 24), torch.randn(96, 1)), batch_size=12)
    crit = nn.MSELoss(reduction="none")
    for epoch in range(args.epochs):
        epoch_loss = 0.0
        sample_loss = 0.0
        for step, (inputs, targets) in enumerate(loader):
            inputs, targets = inputs.to(device), targets.to(device)
            with torch.autocast(device_type=device, enabled=(device == "cuda")):
                per_sample = crit(model(inputs), targets)
                loss = per_sample.mean() / args.accum
            scaler.scale(loss).backward()
            if (step + 1) % args.accum == 0:
                scaler.step(optimizer)
                scaler.update()
                optimizer.zero_grad()
            epoch_loss += loss * args.accum  # expect: TEN501
            sample_loss += per_sample.sum()  # expect: TEN501
        print(f"epoch {epoch} loss {epoch_loss.item() / len(loader):.4f} {sample_loss.item():.2f}")


if __name__ == "__main__":
    main()
