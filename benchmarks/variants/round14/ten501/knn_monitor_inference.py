"""Self-supervised denoising encoder with a kNN monitor built under inference_mode."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class DenoisingAE(nn.Module):
    def __init__(self, d=16, z=8):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, z))
        self.decoder = nn.Sequential(nn.Linear(z, 32), nn.ReLU(), nn.Linear(32, d))

    def forward(self, x):
        return self.decoder(self.encoder(x))


@torch.inference_mode()
def build_bank(encoder, loader):
    feats, labels = [], []
    for x, y in loader:
        feats.append(F.normalize(encoder(x), dim=1))  # ok
        labels.append(y)  # ok
    return torch.cat(feats), torch.cat(labels)


def knn_accuracy(encoder, bank, bank_labels, loader, k=5, classes=4):
    correct, total, sims_log = 0, 0, []
    with torch.set_grad_enabled(False):
        for x, y in loader:
            q = F.normalize(encoder(x), dim=1)
            sim = q @ bank.t()
            top_sim, top_idx = sim.topk(k, dim=1)
            votes = F.one_hot(bank_labels[top_idx], classes).float() * top_sim.unsqueeze(-1)
            pred = votes.sum(1).argmax(-1)
            correct += (pred == y).sum().item()  # ok
            total += y.numel()  # ok
            sims_log.append(sim.max(1).values)  # ok
    return correct / total, torch.cat(sims_log).mean().item()


def main(epochs=3, bs=32):
    torch.manual_seed(0)
    protos = torch.randn(4, 16) * 2
    y = torch.randint(0, 4, (256,))
    x = protos[y] + torch.randn(256, 16)
    train_loader = list(zip(x[:192].split(bs), y[:192].split(bs)))
    test_loader = list(zip(x[192:].split(bs), y[192:].split(bs)))
    model = DenoisingAE()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    epoch_acc = []
    for epoch in range(epochs):
        loss_sum = torch.zeros(())
        for xb, _ in train_loader:
            recon = model(xb + 0.3 * torch.randn_like(xb))
            loss = F.mse_loss(recon, xb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            loss_sum += loss.detach()  # ok
        bank, bank_labels = build_bank(model.encoder, train_loader)
        acc, mean_sim = knn_accuracy(model.encoder, bank, bank_labels, test_loader)
        epoch_acc.append(acc)  # ok
        print(f"epoch {epoch}: recon={loss_sum.item() / len(train_loader):.4f} knn_acc={acc:.3f} sim={mean_sim:.3f}")


if __name__ == "__main__":
    main()
