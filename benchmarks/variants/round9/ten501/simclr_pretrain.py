"""SimCLR pre-training with an online kNN monitor on the training features."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision
import torchvision.transforms as T
from torch.utils.data import DataLoader


class TwoCrops:
    def __init__(self, tf):
        self.tf = tf

    def __call__(self, img):
        return self.tf(img), self.tf(img)


def simclr_transform(size=32):
    return T.Compose([
        T.RandomResizedCrop(size, scale=(0.2, 1.0)),
        T.RandomHorizontalFlip(),
        T.RandomApply([T.ColorJitter(0.4, 0.4, 0.4, 0.1)], p=0.8),
        T.RandomGrayscale(p=0.2),
        T.ToTensor(),
    ])


class SimCLR(nn.Module):
    def __init__(self, proj_dim=128):
        super().__init__()
        backbone = torchvision.models.resnet18()
        backbone.conv1 = nn.Conv2d(3, 64, 3, 1, 1, bias=False)
        backbone.maxpool = nn.Identity()
        feat_dim = backbone.fc.in_features
        backbone.fc = nn.Identity()
        self.backbone = backbone
        self.proj_dim = proj_dim
        self.projector = nn.Sequential(nn.Linear(feat_dim, 512), nn.ReLU(inplace=True),
                                       nn.Linear(512, proj_dim))

    def forward(self, x):
        return self.projector(self.backbone(x))


def nt_xent(z1, z2, temperature=0.5):
    z = F.normalize(torch.cat([z1, z2], dim=0), dim=1)
    n = z1.size(0)
    sim = z @ z.t() / temperature
    sim.fill_diagonal_(float("-inf"))
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)]).to(z.device)
    return F.cross_entropy(sim, targets)


def knn_accuracy(bank, bank_labels, k=20):
    with torch.no_grad():
        bank = F.normalize(bank, dim=1)
        sim = bank @ bank.t()
        sim.fill_diagonal_(-1.0)
        idx = sim.topk(k, dim=1).indices
        votes = bank_labels[idx]
        pred = torch.mode(votes, dim=1).values
        return (pred == bank_labels).float().mean().item()


def train_epoch(model, loader, opt, temperature, epoch, device):
    model.train()
    feature_bank = torch.empty(0, model.proj_dim, device=device)
    label_bank = torch.empty(0, dtype=torch.long, device=device)
    epoch_loss = torch.zeros((), device=device)
    for (x1, x2), y in loader:
        x1, x2 = x1.to(device, non_blocking=True), x2.to(device, non_blocking=True)
        z1 = model(x1)
        z2 = model(x2)
        loss = nt_xent(z1, z2, temperature)

        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()

        epoch_loss += loss.detach()  # ok
        feature_bank = torch.cat([feature_bank, F.normalize(z1, dim=1)], dim=0)  # expect: TEN501
        label_bank = torch.cat([label_bank, y.to(device)])  # ok

    acc = knn_accuracy(feature_bank, label_bank)
    print(f"epoch {epoch}: loss {epoch_loss.item() / len(loader):.4f} knn@20 {acc:.3f}")
    return epoch_loss.item() / len(loader)


def main(epochs=200, batch_size=512, lr=0.3, temperature=0.5):
    device = "cuda" if torch.cuda.is_available() else "cpu"
    ds = torchvision.datasets.CIFAR10("./data", train=True, download=True,
                                      transform=TwoCrops(simclr_transform()))
    loader = DataLoader(ds, batch_size=batch_size, shuffle=True, num_workers=8, drop_last=True)
    model = SimCLR().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9, weight_decay=1e-6)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=epochs)
    for epoch in range(epochs):
        train_epoch(model, loader, opt, temperature, epoch, device)
        sched.step()
    torch.save(model.backbone.state_dict(), "simclr_r18.pt")


if __name__ == "__main__":
    main()
