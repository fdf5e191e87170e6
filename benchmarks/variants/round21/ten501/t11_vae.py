"""VAE (pytorch/examples layout) whose loss function returns the individual terms."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import optim

torch.manual_seed(0)
torch.set_num_threads(1)


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(64, 32)
        self.fc21 = nn.Linear(32, 4)
        self.fc22 = nn.Linear(32, 4)
        self.fc3 = nn.Linear(4, 32)
        self.fc4 = nn.Linear(32, 64)

    def encode(self, x):
        h1 = F.relu(self.fc1(x))
        return self.fc21(h1), self.fc22(h1)

    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        eps = torch.randn_like(std)
        return mu + eps * std

    def decode(self, z):
        h3 = F.relu(self.fc3(z))
        return torch.sigmoid(self.fc4(h3))

    def forward(self, x):
        mu, logvar = self.encode(x.view(-1, 64))
        z = self.reparameterize(mu, logvar)
        return self.decode(z), mu, logvar


def loss_function(recon_x, x, mu, logvar, beta=1.0):
    """Reconstruction + KL divergence losses summed over all elements and batch"""
    BCE = F.binary_cross_entropy(recon_x, x.view(-1, 64), reduction="sum")
    KLD = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return {"loss": BCE + beta * KLD, "bce": BCE, "kld": KLD}


model = VAE()
optimizer = optim.Adam(model.parameters(), lr=1e-3)
data = (torch.rand(320, 64) > 0.6).float()
history = defaultdict(list)
epoch_totals = defaultdict(float)


def train(epoch):
    model.train()
    train_loss = 0
    term_sums = defaultdict(float)
    for batch_idx in range(0, len(data), 32):
        x = data[batch_idx:batch_idx + 32]
        optimizer.zero_grad()
        recon_batch, mu, logvar = model(x)
        terms = loss_function(recon_batch, x, mu, logvar, beta=min(1.0, 0.3 + epoch * 0.3))
        terms["loss"].backward()
        train_loss += terms["loss"].item()
        optimizer.step()
        for k, v in terms.items():
            term_sums[k] += v  # expect: TEN501
            epoch_totals[k] += v.item()  # ok
        history["kld"].append(terms["kld"])  # expect: TEN501
        history["bce"].append(terms["bce"].item())  # ok
        history["mu_norm"].append(mu.norm(dim=1).mean().detach())  # ok
    print(f"====> Epoch: {epoch} Average loss: {train_loss / len(data):.4f} "
          f"(kld {float(term_sums['kld']) / len(data):.4f})")
    return term_sums


def test():
    model.eval()
    test_loss = 0
    with torch.no_grad():
        x = data[:64]
        recon, mu, logvar = model(x)
        terms = loss_function(recon, x, mu, logvar)
        test_loss += terms["loss"]  # ok
        history["test_kld"].append(terms["kld"])  # ok
    print(f"====> Test set loss: {test_loss.item() / 64:.4f}")


all_term_sums = []
for epoch in range(1, 4):
    all_term_sums.append(train(epoch))  # expect: TEN501
    test()
    with torch.no_grad():
        sample = model.decode(torch.randn(8, 4))
    history["samples"].append(sample)  # ok

print("kld trend:", [round(t["kld"].item() / len(data), 3) for t in all_term_sums])
print("kld history mean:", torch.stack(history["kld"]).mean().item(), "bce mean:", sum(history["bce"]) / len(history["bce"]))
print("sample density:", history["samples"][-1].mean().item(), "totals:", {k: round(v, 1) for k, v in epoch_totals.items()})
