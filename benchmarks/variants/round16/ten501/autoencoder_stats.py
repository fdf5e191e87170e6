"""Denoising autoencoder; per-epoch statistics kept in plain dicts."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)


class AE(nn.Module):
    def __init__(self, d=20, bottleneck=4):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(d, 12), nn.ReLU(), nn.Linear(12, bottleneck))
        self.decoder = nn.Sequential(nn.Linear(bottleneck, 12), nn.ReLU(), nn.Linear(12, d))

    def forward(self, x):
        return self.decoder(self.encoder(x))


def run_epoch(model, loader, opt, noise=0.1):
    stats = {}
    per_class_err = {}
    for xb, yb in loader:
        recon = model(xb + noise * torch.randn_like(xb))
        per_sample = (recon - xb).pow(2).mean(dim=1)
        loss = per_sample.mean()
        opt.zero_grad()
        loss.backward()
        opt.step()

        stats["loss"] = stats.get("loss", 0.0) + loss * len(xb)  # expect: TEN501
        stats["n"] = stats.get("n", 0) + len(xb)  # ok
        stats["outliers"] = stats.get("outliers", 0) + (per_sample > 0.5).sum()  # ok
        for c in yb.unique().tolist():
            per_class_err[c] = per_class_err.get(c, 0.0) + per_sample[yb == c].sum().item()  # ok
    return stats, per_class_err


def main():
    centers = torch.randn(3, 20)
    labels = torch.randint(0, 3, (240,))
    data = centers[labels] + 0.3 * torch.randn(240, 20)
    loader = DataLoader(TensorDataset(data, labels), batch_size=40, shuffle=True)
    model = AE()
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    for epoch in range(3):
        stats, per_class = run_epoch(model, loader, opt)
        print(f"epoch {epoch}: mse {(stats['loss'] / stats['n']).item():.4f} "
              f"outliers {int(stats['outliers'])} per-class {[round(v, 2) for v in per_class.values()]}")


if __name__ == "__main__":
    main()
