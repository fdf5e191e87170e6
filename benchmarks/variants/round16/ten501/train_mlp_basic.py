"""Small tabular classifier: the usual train_one_epoch / evaluate split."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)


def make_dataset(n_samples=384, n_features=20, n_classes=3):
    x = torch.randn(n_samples, n_features)
    proj = torch.randn(n_features, n_classes)
    y = (x @ proj + 0.1 * torch.randn(n_samples, n_classes)).argmax(dim=1)
    return TensorDataset(x, y)


class MLP(nn.Module):
    def __init__(self, d_in, d_hidden, d_out):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(d_in, d_hidden), nn.ReLU(),
            nn.Linear(d_hidden, d_hidden), nn.ReLU(),
            nn.Linear(d_hidden, d_out),
        )

    def forward(self, x):
        return self.net(x)


def train_one_epoch(model, loader, criterion, optimizer):
    model.train()
    running_loss = 0.0
    correct = 0
    seen = 0
    for inputs, targets in loader:
        optimizer.zero_grad()
        outputs = model(inputs)
        loss = criterion(outputs, targets)
        loss.backward()
        optimizer.step()

        running_loss += loss * inputs.size(0)  # expect: TEN501
        correct += (outputs.argmax(dim=1) == targets).sum().item()  # ok
        seen += inputs.size(0)
    return running_loss / seen, correct / seen


@torch.no_grad()
def evaluate(model, loader, criterion):
    model.eval()
    total = 0.0
    hits = 0
    for inputs, targets in loader:
        outputs = model(inputs)
        total += criterion(outputs, targets) * inputs.size(0)  # ok
        hits += (outputs.argmax(1) == targets).sum()  # ok
    n = len(loader.dataset)
    return total / n, hits.item() / n


def main():
    full = make_dataset()
    train_set, val_set = torch.utils.data.random_split(full, [320, 64])
    train_loader = DataLoader(train_set, batch_size=32, shuffle=True)
    val_loader = DataLoader(val_set, batch_size=64)

    model = MLP(20, 64, 3)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

    history = {"train_loss": [], "train_acc": [], "val_loss": [], "val_acc": []}
    for epoch in range(4):
        train_loss, train_acc = train_one_epoch(model, train_loader, criterion, optimizer)
        val_loss, val_acc = evaluate(model, val_loader, criterion)

        history["train_loss"].append(train_loss.item())  # ok
        history["train_acc"].append(train_acc)  # ok
        history["val_loss"].append(val_loss)  # ok
        history["val_acc"].append(val_acc)  # ok
        print(f"epoch {epoch}: train {train_loss.item():.4f} ({train_acc:.2%}) "
              f"val {val_loss.item():.4f} ({val_acc:.2%})")

    best = min(range(len(history["val_loss"])), key=lambda i: history["val_loss"][i])
    print("best epoch:", best)


if __name__ == "__main__":
    main()
