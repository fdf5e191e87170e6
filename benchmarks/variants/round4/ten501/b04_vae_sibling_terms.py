import torch
import torch.nn as nn
import torch.nn.functional as F


class VAE(nn.Module):
    def __init__(self, x_dim=784, h_dim=400, z_dim=20):
        super().__init__()
        self.enc = nn.Linear(x_dim, h_dim)
        self.mu = nn.Linear(h_dim, z_dim)
        self.logvar = nn.Linear(h_dim, z_dim)
        self.dec1 = nn.Linear(z_dim, h_dim)
        self.dec2 = nn.Linear(h_dim, x_dim)

    def encode(self, x):
        h = F.relu(self.enc(x))
        return self.mu(h), self.logvar(h)

    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        return mu + torch.randn_like(std) * std

    def decode(self, z):
        return torch.sigmoid(self.dec2(F.relu(self.dec1(z))))

    def forward(self, x):
        mu, logvar = self.encode(x.view(-1, 784))
        z = self.reparameterize(mu, logvar)
        return self.decode(z), mu, logvar


def vae_terms(recon_x, x, mu, logvar):
    recon = F.binary_cross_entropy(recon_x, x.view(-1, 784), reduction="sum")
    kl = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return recon, kl


def train(model, optimizer, data, epochs=10, beta=1.0):
    for epoch in range(1, epochs + 1):
        model.train()
        total, total_recon, total_kl = 0.0, 0.0, 0.0
        for x in data:
            optimizer.zero_grad()
            recon_x, mu, logvar = model(x)
            recon, kl = vae_terms(recon_x, x, mu, logvar)
            loss = recon + beta * kl
            loss.backward()
            optimizer.step()

            total += loss.item()  # ok
            total_recon += recon  # expect: TEN501
            total_kl += kl.item()  # ok
        n = sum(x.size(0) for x in data)
        print(
            f"====> Epoch {epoch} loss {total / n:.4f} "
            f"recon {total_recon / n:.4f} kl {total_kl / n:.4f}"
        )


if __name__ == "__main__":
    torch.manual_seed(1)
    data = [torch.rand(64, 1, 28, 28) for _ in range(30)]
    model = VAE()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    train(model, optimizer, data, epochs=3)
