import argparse

import torch
import torch.nn.functional as F
from torch import nn, optim
from torchvision import datasets, transforms
from torchvision.utils import save_image


class VAE(nn.Module):
    def __init__(self, latent_dim=20, hidden=400):
        super().__init__()
        self.enc = nn.Linear(784, hidden)
        self.mu = nn.Linear(hidden, latent_dim)
        self.logvar = nn.Linear(hidden, latent_dim)
        self.dec1 = nn.Linear(latent_dim, hidden)
        self.dec2 = nn.Linear(hidden, 784)

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


def loss_terms(recon_x, x, mu, logvar):
    bce = F.binary_cross_entropy(recon_x, x.view(-1, 784), reduction="sum")
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return bce, kld


def beta_schedule(epoch, warmup=10, beta_max=1.0):
    return min(beta_max, beta_max * epoch / warmup)


def train(model, loader, optimizer, device, epoch, beta, log_interval=100):
    model.train()
    epoch_terms = []
    for batch_idx, (data, _) in enumerate(loader):
        data = data.to(device)
        optimizer.zero_grad()
        recon, mu, logvar = model(data)
        bce, kld = loss_terms(recon, data, mu, logvar)
        loss = bce + beta * kld  # ok
        loss.backward()
        optimizer.step()
        epoch_terms.append((bce, kld))  # expect: TEN501
        if batch_idx % log_interval == 0:
            print(f"Train Epoch: {epoch} [{batch_idx * len(data)}/{len(loader.dataset)}]"
                  f"\tLoss: {loss.item() / len(data):.6f}")
    bce_all, kld_all = (torch.stack(t) for t in zip(*epoch_terms))
    n = len(loader.dataset)
    print(f"====> Epoch {epoch}: recon {bce_all.sum().item() / n:.4f} kl {kld_all.sum().item() / n:.4f} (beta={beta:.2f})")


def test(model, loader, device, epoch, out_dir="results"):
    model.eval()
    test_loss = 0
    latents = []
    with torch.no_grad():
        for i, (data, _) in enumerate(loader):
            data = data.to(device)
            recon, mu, logvar = model(data)
            bce, kld = loss_terms(recon, data, mu, logvar)
            test_loss += bce + kld  # ok
            latents.append(mu.cpu())  # ok
            if i == 0:
                n = min(data.size(0), 8)
                comparison = torch.cat([data[:n], recon.view(-1, 1, 28, 28)[:n]])
                save_image(comparison.cpu(), f"{out_dir}/reconstruction_{epoch}.png", nrow=n)
    test_loss = test_loss.item() / len(loader.dataset)
    print(f"====> Test set loss: {test_loss:.4f}")
    return torch.cat(latents)


def main():
    parser = argparse.ArgumentParser(description="VAE MNIST")
    parser.add_argument("--batch-size", type=int, default=128)
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    tf = transforms.ToTensor()
    train_loader = torch.utils.data.DataLoader(datasets.MNIST("../data", train=True, download=True, transform=tf),
                                               batch_size=args.batch_size, shuffle=True)
    test_loader = torch.utils.data.DataLoader(datasets.MNIST("../data", train=False, transform=tf),
                                              batch_size=args.batch_size, shuffle=False)
    model = VAE().to(device)
    optimizer = optim.Adam(model.parameters(), lr=1e-3)

    for epoch in range(1, args.epochs + 1):
        train(model, train_loader, optimizer, device, epoch, beta_schedule(epoch))
        z = test(model, test_loader, device, epoch)
        with torch.no_grad():
            sample = model.decode(torch.randn(64, z.size(1), device=device)).cpu()
            save_image(sample.view(64, 1, 28, 28), f"results/sample_{epoch}.png")


if __name__ == "__main__":
    main()
