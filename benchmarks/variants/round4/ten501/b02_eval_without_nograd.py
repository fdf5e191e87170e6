"""Train a small CNN and evaluate every epoch.

`evaluate` is only ever called from inside the training loop below, and it
never disables grad mode: model.eval() only changes dropout/batchnorm.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SmallCNN(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, 3, padding=1)
        self.conv2 = nn.Conv2d(16, 32, 3, padding=1)
        self.bn = nn.BatchNorm2d(32)
        self.head = nn.Linear(32 * 7 * 7, num_classes)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.bn(self.conv2(x))), 2)
        return self.head(x.flatten(1))


def fake_loader(n_batches, bs=32):
    for _ in range(n_batches):
        yield torch.randn(bs, 1, 28, 28), torch.randint(0, 10, (bs,))


def evaluate(model, loader, criterion):
    model.eval()
    total, n = 0.0, 0
    probs, targets = [], []
    for x, y in loader:
        out = model(x)
        loss = criterion(out, y)
        total += loss * x.size(0)  # expect: TEN501
        n += x.size(0)
        probs.append(torch.softmax(out, dim=1))  # expect: TEN501
        targets.append(y)  # ok
    probs = torch.cat(probs)
    targets = torch.cat(targets)
    acc = (probs.argmax(1) == targets).float().mean().item()
    model.train()
    return total / n, acc


def main():
    model = SmallCNN()
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    sched = torch.optim.lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.5)

    for epoch in range(4):
        model.train()
        for step, (x, y) in enumerate(fake_loader(50)):
            optimizer.zero_grad()
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()
            if step % 10 == 0:
                print(f"ep {epoch} step {step} loss {loss.item():.3f}")
        sched.step()

        val_loss, val_acc = evaluate(model, fake_loader(20), criterion)
        print(f"epoch {epoch} val_loss={float(val_loss):.4f} val_acc={val_acc:.3f}")


if __name__ == "__main__":
    main()
