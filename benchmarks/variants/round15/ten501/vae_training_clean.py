"""VAE training loop (pytorch/examples style) with scalar bookkeeping only."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class VAE(nn.Module):
    def __init__(self, d=16, z=3):
        super().__init__()
        self.fc1 = nn.Linear(d, 12)
        self.fc21, self.fc22 = nn.Linear(12, z), nn.Linear(12, z)
        self.fc3, self.fc4 = nn.Linear(z, 12), nn.Linear(12, d)

    def encode(self, x):
        h1 = F.relu(self.fc1(x))
        return self.fc21(h1), self.fc22(h1)

    def reparameterize(self, mu, logvar):
        return mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)

    def decode(self, z):
        return torch.sigmoid(self.fc4(F.relu(self.fc3(z))))

    def forward(self, x):
        mu, logvar = self.encode(x)
        return self.decode(self.reparameterize(mu, logvar)), mu, logvar


def loss_function(recon_x, x, mu, logvar):
    bce = F.binary_cross_entropy(recon_x, x, reduction="sum")
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return bce + kld, bce, kld


def train(model, optimizer, data, epoch, stats):
    model.train()
    train_loss = 0
    for batch_idx, x in enumerate(data):
        optimizer.zero_grad()
        recon, mu, logvar = model(x)
        loss, bce, kld = loss_function(recon, x, mu, logvar)
        loss.backward()
        train_loss += loss.item()  # ok
        optimizer.step()
        stats["bce"].append(bce.item())  # ok
        stats["kld"].append(kld.detach().cpu().numpy())  # ok
        stats["mu_norm"].append(mu.norm(dim=1).mean().tolist())  # ok
    return train_loss / sum(len(x) for x in data)


def sample(model, n, gallery):
    with torch.no_grad():
        z = torch.randn(n, 3)
        gallery.append(model.decode(z).cpu())  # ok


if __name__ == "__main__":
    torch.manual_seed(0)
    model = VAE()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    data = [torch.rand(8, 16) for _ in range(3)]
    stats, gallery, epoch_losses = {"bce": [], "kld": [], "mu_norm": []}, [], []
    for epoch in range(1, 4):
        epoch_losses.append(train(model, opt, data, epoch, stats))  # ok
        sample(model, 4, gallery)
    print(epoch_losses, len(gallery))
