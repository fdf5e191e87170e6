"""Small CIFAR-10 style training loop for a ResNet-ish classifier."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class BasicBlock(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.c1 = nn.Conv2d(ch, ch, 3, padding=1, bias=False)
        self.b1 = nn.BatchNorm2d(ch)
        self.c2 = nn.Conv2d(ch, ch, 3, padding=1, bias=False)
        self.b2 = nn.BatchNorm2d(ch)

    def forward(self, x):
        h = F.relu(self.b1(self.c1(x)))
        return F.relu(x + self.b2(self.c2(h)))


class TinyResNet(nn.Module):
    def __init__(self, n_classes=10):
        super().__init__()
        self.stem = nn.Conv2d(3, 32, 3, padding=1)
        self.blocks = nn.Sequential(BasicBlock(32), BasicBlock(32))
        self.head = nn.Linear(32, n_classes)

    def forward(self, x):
        h = self.blocks(F.relu(self.stem(x)))
        return self.head(h.mean(dim=(2, 3)))


def train_one_epoch(model, loader, opt, device="cpu"):
    model.train()
    running_loss = 0.0
    correct = 0
    seen = 0
    for images, labels in loader:
        images, labels = images.to(device), labels.to(device)
        logits = model(images)
        loss = F.cross_entropy(logits, labels)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()

        running_loss += loss  # expect: TEN501
        correct += (logits.argmax(1) == labels).sum().item()  # ok
        seen += labels.size(0)  # ok
    return running_loss / len(loader), correct / seen


def evaluate(model, loader, device="cpu"):
    model.eval()
    total, hits, n = 0.0, 0, 0
    with torch.no_grad():
        for images, labels in loader:
            logits = model(images.to(device))
            total += F.cross_entropy(logits, labels.to(device), reduction="sum")  # ok
            hits += (logits.argmax(1) == labels.to(device)).sum()  # ok
            n += labels.numel()  # ok
    return total.item() / n, hits.item() / n


if __name__ == "__main__":
    from torch.utils.data import DataLoader, TensorDataset

    ds = TensorDataset(torch.randn(256, 3, 32, 32), torch.randint(0, 10, (256,)))
    dl = DataLoader(ds, batch_size=32, shuffle=True)
    net = TinyResNet()
    sgd = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    for epoch in range(3):
        tr_loss, tr_acc = train_one_epoch(net, dl, sgd)
        va_loss, va_acc = evaluate(net, dl)
        print(f"epoch {epoch}: train {float(tr_loss):.3f}/{tr_acc:.3f} val {va_loss:.3f}/{va_acc:.3f}")
