"""SimCLR-style contrastive pretraining with an NT-Xent loss + kNN feature bank."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class Encoder(nn.Module):
    def __init__(self, d_in=64, d_feat=32, d_proj=16):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(d_in, 128), nn.ReLU(), nn.Linear(128, d_feat))
        self.projector = nn.Sequential(nn.ReLU(), nn.Linear(d_feat, d_proj))

    def forward(self, x):
        return self.projector(self.backbone(x))


def nt_xent(z1, z2, tau=0.5):
    z = F.normalize(torch.cat([z1, z2]), dim=1)
    n = z1.size(0)
    sim = z @ z.t() / tau
    sim.fill_diagonal_(float("-inf"))
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)])
    return F.cross_entropy(sim, targets)


def augment(x):
    mask = (torch.rand_like(x) > 0.1).float()
    return x * mask + 0.05 * torch.randn_like(x)


def train_step(model, opt, x1, x2):
    z1, z2 = model(x1), model(x2)
    loss = nt_xent(z1, z2)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss


def main(epochs=3):
    torch.manual_seed(0)
    data = torch.randn(512, 64)
    loader = DataLoader(TensorDataset(data), batch_size=64, shuffle=True, drop_last=True)
    model = Encoder()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)

    epoch_losses = []
    for epoch in range(epochs):
        feature_bank = torch.empty(0, 32)
        for (x,) in loader:
            x1, x2 = augment(x), augment(x)
            epoch_losses.append(train_step(model, opt, x1, x2))  # expect: TEN501
            with torch.no_grad():
                feats = F.normalize(model.backbone(x), dim=1)
            feature_bank = torch.cat([feature_bank, feats])  # ok
        mean_loss = torch.stack(epoch_losses[-len(loader):]).mean().item()
        print(f"epoch {epoch}: nt-xent {mean_loss:.4f}, bank {tuple(feature_bank.shape)}")


if __name__ == "__main__":
    main()
