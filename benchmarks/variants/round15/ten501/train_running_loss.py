"""Plain classification loop in the style of many tutorial repos."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class SmallNet(nn.Module):
    def __init__(self, in_dim=16, hidden=32, n_classes=4):
        super().__init__()
        self.fc1 = nn.Linear(in_dim, hidden)
        self.fc2 = nn.Linear(hidden, n_classes)
        self.drop = nn.Dropout(0.1)

    def forward(self, x):
        return self.fc2(self.drop(F.relu(self.fc1(x))))


def make_loader(n=96, batch_size=16):
    x = torch.randn(n, 16)
    y = torch.randint(0, 4, (n,))
    return DataLoader(TensorDataset(x, y), batch_size=batch_size, shuffle=True)


def train(model, loader, optimizer, criterion, epochs=3):
    train_losses, train_accs = [], []
    for epoch in range(epochs):
        model.train()
        running_loss = 0.0
        correct = 0
        total = 0
        for batch_idx, (inputs, targets) in enumerate(loader):
            optimizer.zero_grad()
            outputs = model(inputs)
            loss = criterion(outputs, targets)
            loss.backward()
            optimizer.step()

            running_loss += loss  # expect: TEN501
            _, predicted = outputs.max(1)
            total += targets.size(0)  # ok
            correct += predicted.eq(targets).sum().item()  # ok
        epoch_loss = running_loss / len(loader)
        train_losses.append(epoch_loss)  # expect: TEN501
        train_accs.append(100.0 * correct / total)  # ok
        print(f"epoch {epoch} loss {float(epoch_loss):.4f} acc {train_accs[-1]:.1f}")
    return train_losses, train_accs


def evaluate(model, loader, criterion):
    model.eval()
    test_loss = 0.0
    correct = 0
    with torch.no_grad():
        for inputs, targets in loader:
            outputs = model(inputs)
            test_loss += criterion(outputs, targets)  # ok
            correct += (outputs.argmax(dim=1) == targets).sum()  # ok
    return test_loss.item() / len(loader), correct.item() / len(loader.dataset)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = SmallNet()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    crit = nn.CrossEntropyLoss()
    train(model, make_loader(), opt, crit)
    print(evaluate(model, make_loader(32), crit))
