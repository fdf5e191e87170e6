import torch
from torch import nn
import torch.nn.functional as F


class VAE(nn.Module):
    def __init__(self, x_dim=784, h_dim=400, z_dim=20):
        super().__init__()
        self.fc1 = nn.Linear(x_dim, h_dim)
        self.mu = nn.Linear(h_dim, z_dim)
        self.logvar = nn.Linear(h_dim, z_dim)
        self.fc2 = nn.Linear(z_dim, h_dim)
        self.out = nn.Linear(h_dim, x_dim)

    def forward(self, x):
        h = F.relu(self.fc1(x))
        mu, logvar = self.mu(h), self.logvar(h)
        z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        return torch.sigmoid(self.out(F.relu(self.fc2(z)))), mu, logvar


def elbo_terms(x_hat, x, mu, logvar):
    recon = F.binary_cross_entropy(x_hat, x, reduction="sum") / x.size(0)
    kl = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp()) / x.size(0)
    return recon, kl


def train(loader, epochs=10, warmup=5):
    model = VAE()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        beta = min(1.0, (epoch + 1) / warmup)
        sums = [0.0, 0.0]
        nb = 0
        for x, _ in loader:
            x = x.view(x.size(0), -1)
            x_hat, mu, logvar = model(x)
            recon, kl = elbo_terms(x_hat, x, mu, logvar)
            loss = recon + beta * kl
            opt.zero_grad()
            loss.backward()
            opt.step()
            sums[0] += recon  # expect: TEN501
            sums[1] += kl.item()  # ok
            nb += 1  # ok
        print(f"epoch {epoch} beta {beta:.2f} recon {float(sums[0]) / nb:.2f} kl {sums[1] / nb:.2f}")
    return model


def evaluate(model, loader):
    model.eval()
    tot = torch.zeros(2)
    with torch.no_grad():
        for x, _ in loader:
            x = x.view(x.size(0), -1)
            x_hat, mu, logvar = model(x)
            tot += torch.stack(elbo_terms(x_hat, x, mu, logvar))  # ok
    return tot / len(loader)
