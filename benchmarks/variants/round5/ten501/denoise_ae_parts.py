"""Denoising autoencoder; the loss helper returns (loss, parts) so the loop can log components."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class DAE(nn.Module):
    def __init__(self, d=64, z=8):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, z))
        self.dec = nn.Sequential(nn.Linear(z, 32), nn.ReLU(), nn.Linear(32, d))

    def forward(self, x):
        return self.dec(self.enc(x))


def compute_loss(model, x, noise=0.2):
    noisy = x + noise * torch.randn_like(x)
    recon = model(noisy)
    per_sample = (recon - x).pow(2).mean(dim=1)
    mse = per_sample.mean()
    l1 = (recon - x).abs().mean()
    return mse + 0.1 * l1, {"mse": mse, "l1": l1, "per_sample": per_sample}


def main(epochs=3):
    torch.manual_seed(0)
    base = torch.randn(512, 8) @ torch.randn(8, 64)
    train_dl = DataLoader(TensorDataset(base[:448]), batch_size=32, shuffle=True)
    val_dl = DataLoader(TensorDataset(base[448:]), batch_size=64)
    model = DAE()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)

    for epoch in range(epochs):
        sums = {"mse": 0.0, "l1": 0.0}
        per_sample_errors = []
        for (x,) in train_dl:
            loss, parts = compute_loss(model, x)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sums["l1"] += parts["l1"]  # expect: TEN501
            sums["mse"] += parts["mse"].item()  # ok
            per_sample_errors.extend(parts["per_sample"])  # expect: TEN501

        val_errors = []
        with torch.inference_mode():
            for (x,) in val_dl:
                _, vparts = compute_loss(model, x)
                val_errors.extend(vparts["per_sample"])  # ok
        n = len(train_dl)
        print(f"epoch {epoch}: mse {sums['mse'] / n:.4f} l1 {float(sums['l1']) / n:.4f} "
              f"worst train {max(float(e) for e in per_sample_errors):.3f} "
              f"val {torch.stack(val_errors).mean().item():.4f}")


if __name__ == "__main__":
    main()
