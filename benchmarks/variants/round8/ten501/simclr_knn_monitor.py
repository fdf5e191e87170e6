import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision
from torchvision import transforms


class TwoCropTransform:
    def __init__(self, base):
        self.base = base

    def __call__(self, x):
        return self.base(x), self.base(x)


def simclr_augment(size=32):
    return transforms.Compose([
        transforms.RandomResizedCrop(size, scale=(0.2, 1.0)),
        transforms.RandomHorizontalFlip(),
        transforms.RandomApply([transforms.ColorJitter(0.4, 0.4, 0.4, 0.1)], p=0.8),
        transforms.RandomGrayscale(p=0.2),
        transforms.ToTensor(),
        transforms.Normalize([0.4914, 0.4822, 0.4465], [0.2023, 0.1994, 0.2010]),
    ])


class SimCLR(nn.Module):
    def __init__(self, feat_dim=128):
        super().__init__()
        backbone = torchvision.models.resnet18()
        backbone.conv1 = nn.Conv2d(3, 64, 3, 1, 1, bias=False)
        backbone.maxpool = nn.Identity()
        dim = backbone.fc.in_features
        backbone.fc = nn.Identity()
        self.backbone = backbone
        self.projector = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(inplace=True), nn.Linear(dim, feat_dim))

    def forward(self, x):
        return self.projector(self.backbone(x))


def nt_xent(z1, z2, temperature=0.5):
    n = z1.size(0)
    z = F.normalize(torch.cat([z1, z2], dim=0), dim=1)
    sim = z @ z.t() / temperature
    sim.fill_diagonal_(float("-inf"))
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)]).to(z.device)
    return F.cross_entropy(sim, targets)


def knn_monitor(backbone, memory_loader, test_loader, device, k=200, t=0.1, num_classes=10):
    backbone.eval()
    feature_bank, bank_labels = [], []
    for data, target in memory_loader:
        feature = backbone(data.to(device, non_blocking=True))
        feature_bank.append(F.normalize(feature, dim=1))  # expect: TEN501
        bank_labels.append(target)  # ok
    feature_bank = torch.cat(feature_bank, dim=0).t().contiguous()
    bank_labels = torch.cat(bank_labels).to(device)

    total_top1, total_num = 0.0, 0
    with torch.no_grad():
        for data, target in test_loader:
            data, target = data.to(device), target.to(device)
            feature = F.normalize(backbone(data), dim=1)
            sim = feature @ feature_bank
            sim_weight, sim_idx = sim.topk(k=k, dim=-1)
            sim_labels = torch.gather(bank_labels.expand(data.size(0), -1), dim=-1, index=sim_idx)
            sim_weight = (sim_weight / t).exp()
            one_hot = torch.zeros(data.size(0) * k, num_classes, device=device)
            one_hot.scatter_(1, sim_labels.view(-1, 1), 1.0)
            pred_scores = (one_hot.view(data.size(0), -1, num_classes) * sim_weight.unsqueeze(-1)).sum(dim=1)
            pred_labels = pred_scores.argsort(dim=-1, descending=True)
            total_top1 += (pred_labels[:, 0] == target).float().sum().item()  # ok
            total_num += data.size(0)
    return 100.0 * total_top1 / total_num


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=500)
    parser.add_argument("--bs", type=int, default=512)
    parser.add_argument("--knn-every", type=int, default=10)
    args = parser.parse_args()
    device = torch.device("cuda")

    train_set = torchvision.datasets.CIFAR10("data", train=True, download=True, transform=TwoCropTransform(simclr_augment()))
    plain = transforms.Compose([transforms.ToTensor(), transforms.Normalize([0.4914, 0.4822, 0.4465], [0.2023, 0.1994, 0.2010])])
    memory_set = torchvision.datasets.CIFAR10("data", train=True, transform=plain)
    test_set = torchvision.datasets.CIFAR10("data", train=False, transform=plain)
    train_loader = torch.utils.data.DataLoader(train_set, batch_size=args.bs, shuffle=True, num_workers=8, drop_last=True)
    memory_loader = torch.utils.data.DataLoader(memory_set, batch_size=512, num_workers=8)
    test_loader = torch.utils.data.DataLoader(test_set, batch_size=512, num_workers=8)

    model = SimCLR().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.06 * args.bs / 256, momentum=0.9, weight_decay=5e-4)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, args.epochs)

    for epoch in range(args.epochs):
        model.train()
        total_loss, total_num = 0.0, 0
        for (x1, x2), _ in train_loader:
            x1, x2 = x1.to(device, non_blocking=True), x2.to(device, non_blocking=True)
            loss = nt_xent(model(x1), model(x2))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total_loss += loss.item() * x1.size(0)  # ok
            total_num += x1.size(0)
        scheduler.step()
        msg = f"epoch {epoch} loss {total_loss / total_num:.4f}"
        if (epoch + 1) % args.knn_every == 0:
            msg += f" knn@200 {knn_monitor(model.backbone, memory_loader, test_loader, device):.2f}"
        print(msg)
        torch.save(model.state_dict(), "simclr_r18.pt")


if __name__ == "__main__":
    main()
