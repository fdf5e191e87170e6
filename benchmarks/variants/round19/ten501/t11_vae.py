"""VAE with separate recon / KL bookkeeping and a latent cache for plotting."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class VAE(nn.Module):
    def __init__(self, d=8, z=2):
        super().__init__()
        self.enc = nn.Linear(d, 16)
        self.mu = nn.Linear(16, z)
        self.logvar = nn.Linear(16, z)
        self.dec = nn.Sequential(nn.Linear(z, 16), nn.ReLU(), nn.Linear(16, d))
        self.latent_cache = []

    def forward(self, x):
        h = F.relu(self.enc(x))
        mu, logvar = self.mu(h), self.logvar(h)
        z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        self.latent_cache.append(mu)  # expect: TEN501
        return self.dec(z), mu, logvar


def loss_function(recon, x, mu, logvar):
    bce = F.mse_loss(recon, x, reduction="sum")
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return bce + kld, bce, kld


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = VAE()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    data = [torch.randn(16, 8) for _ in range(3)]
    recon_hist, kl_by_epoch, kl_values, mus_np = [], {}, {}, []
    for epoch in range(3):
        train_loss = 0
        for x in data:
            opt.zero_grad()
            recon, mu, logvar = model(x)
            loss, bce, kld = loss_function(recon, x, mu, logvar)
            loss.backward()
            train_loss += loss.item()  # ok
            opt.step()
            recon_hist.append(bce)  # expect: TEN501
            mus_np.append(mu.detach().numpy().copy())  # ok
        kl_by_epoch[epoch] = kld  # expect: TEN501
        kl_values[epoch] = kld.item()  # ok
        model.latent_cache = []
    print(train_loss, len(recon_hist), float(sum(kl_by_epoch.values())), kl_values, len(mus_np), len(model.latent_cache))


if __name__ == "__main__":
    main()
