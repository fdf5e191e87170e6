"""Minimal MNIST training script (adapted from the classic example)."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader
from torchvision import datasets, transforms


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 32, 3, 1)
        self.conv2 = nn.Conv2d(32, 64, 3, 1)
        self.dropout = nn.Dropout(0.25)
        self.fc1 = nn.Linear(9216, 128)
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = self.dropout(torch.flatten(x, 1))
        x = F.relu(self.fc1(x))
        return self.fc2(x)


def train(model, device, loader, optimizer, epoch, log_interval=10):
    model.train()
    running_loss = 0.0
    correct = 0
    for batch_idx, (data, target) in enumerate(loader):
        data, target = data.to(device), target.to(device)
        optimizer.zero_grad()
        output = model(data)
        loss = F.cross_entropy(output, target)
        loss.backward()
        optimizer.step()
        running_loss += loss  # expect: TEN501
        pred = output.argmax(dim=1)
        correct += pred.eq(target).sum()  # ok
        if batch_idx % log_interval == 0:
            print(f"Train epoch {epoch} [{batch_idx * len(data)}/{len(loader.dataset)}]"
                  f"\tLoss: {loss.item():.6f}")
    return running_loss / len(loader), correct.item()


def test(model, device, loader):
    model.eval()
    test_loss = 0
    correct = 0
    with torch.no_grad():
        for data, target in loader:
            data, target = data.to(device), target.to(device)
            output = model(data)
            test_loss += F.cross_entropy(output, target, reduction="sum")  # ok
            correct += (output.argmax(1) == target).sum().item()  # ok
    test_loss /= len(loader.dataset)
    print(f"Test set: average loss {test_loss.item():.4f}, accuracy {correct}/{len(loader.dataset)}")
    return test_loss, correct


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--lr", type=float, default=1.0)
    parser.add_argument("--batch-size", type=int, default=64)
    args = parser.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    tfm = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.1307,), (0.3081,))])
    train_loader = DataLoader(datasets.MNIST("data", train=True, download=True, transform=tfm),
                              batch_size=args.batch_size, shuffle=True)
    test_loader = DataLoader(datasets.MNIST("data", train=False, transform=tfm), batch_size=1000)

    model = Net().to(device)
    optimizer = torch.optim.Adadelta(model.parameters(), lr=args.lr)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.7)

    train_curve, test_curve = [], []
    for epoch in range(1, args.epochs + 1):
        avg_loss, _ = train(model, device, train_loader, optimizer, epoch)
        train_curve.append(float(avg_loss))  # ok
        test_loss, _ = test(model, device, test_loader)
        test_curve.append(test_loss)  # ok
        scheduler.step()

    torch.save(model.state_dict(), "mnist_cnn.pt")
    return train_curve, test_curve


if __name__ == "__main__":
    main()
