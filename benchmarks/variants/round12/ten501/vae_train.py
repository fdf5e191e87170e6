import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader
from torchvision import datasets, transforms


class VAE(nn.Module):
    def __init__(self, latent=20):
        super().__init__()
        self.fc1 = nn.Linear(784, 400)
        self.fc21 = nn.Linear(400, latent)
        self.fc22 = nn.Linear(400, latent)
        self.fc3 = nn.Linear(latent, 400)
        self.fc4 = nn.Linear(400, 784)

    def encode(self, x):
        h1 = F.relu(self.fc1(x))
        return self.fc21(h1), self.fc22(h1)

    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        return mu + torch.randn_like(std) * std

    def decode(self, z):
        return torch.sigmoid(self.fc4(F.relu(self.fc3(z))))

    def forward(self, x):
        mu, logvar = self.encode(x.view(-1, 784))
        z = self.reparameterize(mu, logvar)
        return self.decode(z), mu, logvar


def loss_function(recon_x, x, mu, logvar):
    bce = F.binary_cross_entropy(recon_x, x.view(-1, 784), reduction="sum")
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return bce + kld, bce, kld


model = VAE()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
train_loader = DataLoader(datasets.MNIST("../data", train=True, download=True,
                                         transform=transforms.ToTensor()), batch_size=128, shuffle=True)
test_loader = DataLoader(datasets.MNIST("../data", train=False, transform=transforms.ToTensor()),
                         batch_size=128)
mu_snapshots = []
samples = []
epoch_stats = []


def train(epoch):
    model.train()
    train_loss = 0
    recon_total = torch.zeros(())
    kl_total = 0.0
    for batch_idx, (data, _) in enumerate(train_loader):
        optimizer.zero_grad()
        recon_batch, mu, logvar = model(data)
        loss, bce, kld = loss_function(recon_batch, data, mu, logvar)
        loss.backward()
        train_loss += loss.item()  # ok
        recon_total += bce.detach()  # ok
        kl_total += kld  # expect: TEN501
        optimizer.step()
    mu_snapshots.append(mu.cpu())  # expect: TEN501
    n = len(train_loader.dataset)
    epoch_stats.append({"loss": train_loss / n, "recon": recon_total.item() / n})  # ok
    print(f"====> Epoch: {epoch} Average loss: {train_loss / n:.4f}")
    return kl_total / n


def test(epoch):
    model.eval()
    test_loss = 0
    with torch.no_grad():
        for i, (data, _) in enumerate(test_loader):
            recon_batch, mu, logvar = model(data)
            test_loss += loss_function(recon_batch, data, mu, logvar)[0]  # ok
            if i == 0:
                samples.append(recon_batch[:8].view(8, 1, 28, 28).cpu())  # ok
    test_loss /= len(test_loader.dataset)
    print(f"====> Test set loss: {test_loss.item():.4f}")


if __name__ == "__main__":
    for epoch in range(1, 11):
        train(epoch)
        test(epoch)
