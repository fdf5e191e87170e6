"""SimCLR pre-training with a timm backbone (NT-Xent loss)."""
import timm
import torch
import torch.nn as nn
import torch.nn.functional as F


class SimCLR(nn.Module):
    def __init__(self, backbone="resnet18", proj_dim=128):
        super().__init__()
        self.encoder = timm.create_model(backbone, pretrained=False, num_classes=0)
        feat_dim = self.encoder.num_features
        self.projector = nn.Sequential(nn.Linear(feat_dim, 512), nn.ReLU(inplace=True), nn.Linear(512, proj_dim))

    def forward(self, x):
        return F.normalize(self.projector(self.encoder(x)), dim=1)


def nt_xent(z1, z2, temperature=0.5):
    n = z1.size(0)
    z = torch.cat([z1, z2], dim=0)
    sim = z @ z.t() / temperature
    sim.fill_diagonal_(float("-inf"))
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)]).to(z.device)
    return F.cross_entropy(sim, targets), (z1 * z2).sum(dim=1)


def augment(x):
    if torch.rand(1).item() < 0.5:
        x = x.flip(-1)
    return x + 0.1 * torch.randn_like(x)


def pretrain(model, loader, epochs=10, lr=3e-4, device="cpu"):
    opt = torch.optim.Adam(model.parameters(), lr=lr, weight_decay=1e-6)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=epochs)
    pos_sim_log = []
    for epoch in range(epochs):
        model.train()
        epoch_loss = torch.zeros((), device=device)
        for images in loader:
            images = images.to(device)
            z1, z2 = model(augment(images)), model(augment(images))
            loss, sim_pos = nt_xent(z1, z2)
            opt.zero_grad()
            loss.backward()
            opt.step()
            epoch_loss += loss.detach()  # ok
            pos_sim_log.append(sim_pos.mean())  # expect: TEN501
        sched.step()
        recent = torch.stack(pos_sim_log[-len(loader):]).mean()
        print(f"epoch {epoch}: loss {epoch_loss.item() / len(loader):.4f} pos-sim {recent.item():.3f}")
    return pos_sim_log


if __name__ == "__main__":
    data = [torch.randn(16, 3, 64, 64) for _ in range(10)]
    pretrain(SimCLR(), data, epochs=2)
