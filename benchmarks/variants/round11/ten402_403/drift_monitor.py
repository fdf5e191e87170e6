"""Log how far each layer drifts from its starting point during training (CPU-only job)."""
from collections import defaultdict

import torch
import torch.nn as nn

DEVICE = torch.device("cpu")


class Autoencoder(nn.Module):
    def __init__(self, d=64, z=8):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(d, 32), nn.Tanh(), nn.Linear(32, z))
        self.dec = nn.Sequential(nn.Linear(z, 32), nn.Tanh(), nn.Linear(32, d))

    def forward(self, x):
        return self.dec(self.enc(x))


def relative_drift(model, reference):
    out = {}
    for name, p in model.named_parameters():
        ref = reference[name]
        out[name] = ((p.detach().cpu() - ref).norm() / (ref.norm() + 1e-12)).item()
    return out


def main(epochs=30):
    model = Autoencoder().to(DEVICE)
    start = {n: p.cpu() for n, p in model.named_parameters()}  # expect: TEN402
    start_ok = {n: p.detach().cpu().clone() for n, p in model.named_parameters()}  # ok
    opt = torch.optim.RMSprop(model.parameters(), lr=1e-3)
    history = defaultdict(list)
    data = torch.randn(4096, 64, device=DEVICE)
    for epoch in range(epochs):
        for chunk in data.split(128):
            loss = nn.functional.mse_loss(model(chunk), chunk)
            opt.zero_grad()
            loss.backward()
            opt.step()
        for name, value in relative_drift(model, start).items():
            history[name].append(value)
        print(epoch, max(relative_drift(model, start_ok).values()))
    return history


if __name__ == "__main__":
    main()
