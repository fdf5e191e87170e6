"""Contrastive pretraining with a FIFO negative queue fed by the online encoder."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision


class ProjectionHead(nn.Sequential):
    def __init__(self, in_dim=512, hidden=2048, out_dim=128):
        super().__init__(nn.Linear(in_dim, hidden), nn.BatchNorm1d(hidden), nn.ReLU(inplace=True),
                         nn.Linear(hidden, out_dim))


class QueueContrast(nn.Module):
    def __init__(self, dim=128, K=8192, T=0.1):
        super().__init__()
        backbone = torchvision.models.resnet18(weights=None)
        backbone.fc = nn.Identity()
        self.encoder = nn.Sequential(backbone, ProjectionHead(512, 2048, dim))
        self.K = K
        self.T = T
        self.queue = F.normalize(torch.randn(0, dim), dim=1)

    def forward(self, im_q, im_k):
        q = F.normalize(self.encoder(im_q), dim=1)
        k = F.normalize(self.encoder(im_k), dim=1)

        l_pos = (q * k).sum(dim=1, keepdim=True)
        if self.queue.numel() > 0:
            l_neg = q @ self.queue.t()
            logits = torch.cat([l_pos, l_neg], dim=1)
        else:
            logits = torch.cat([l_pos, q @ k.t()], dim=1)
        logits = logits / self.T
        labels = torch.zeros(logits.size(0), dtype=torch.long, device=logits.device)

        # push the newest keys in front, drop the oldest
        self.queue = torch.cat([k, self.queue.to(k.device)], dim=0)[: self.K]  # expect: TEN501
        return logits, labels


def two_crops(size=96):
    aug = torchvision.transforms.Compose([
        torchvision.transforms.RandomResizedCrop(size, scale=(0.2, 1.0)),
        torchvision.transforms.RandomHorizontalFlip(),
        torchvision.transforms.ColorJitter(0.4, 0.4, 0.4, 0.1),
        torchvision.transforms.ToTensor(),
    ])
    return lambda img: (aug(img), aug(img))


def pretrain(epochs=200, batch_size=256, lr=0.03):
    device = "cuda"
    ds = torchvision.datasets.STL10("data", split="unlabeled", download=True, transform=two_crops())
    loader = torch.utils.data.DataLoader(ds, batch_size=batch_size, shuffle=True, num_workers=8,
                                         drop_last=True, pin_memory=True)
    model = QueueContrast().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9, weight_decay=1e-4)
    for epoch in range(epochs):
        running = 0.0
        for (x1, x2), _ in loader:
            x1, x2 = x1.to(device, non_blocking=True), x2.to(device, non_blocking=True)
            logits, labels = model(x1, x2)
            loss = F.cross_entropy(logits, labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
            running += loss.item()
        print(f"epoch {epoch} loss {running / len(loader):.4f}")
        torch.save(model.encoder.state_dict(), "encoder.pth")


if __name__ == "__main__":
    pretrain()
