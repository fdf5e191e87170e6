"""K-fold cross-validation that re-initialises the same network for every fold."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Subset, TensorDataset


def kfold_indices(n, k):
    perm = torch.randperm(n).tolist()
    fold = n // k
    for i in range(k):
        val = perm[i * fold:(i + 1) * fold]
        train = perm[:i * fold] + perm[(i + 1) * fold:]
        yield train, val


def train_one(model, loader, epochs, lr):
    opt = torch.optim.RMSprop(model.parameters(), lr=lr)
    crit = nn.BCEWithLogitsLoss()
    for _ in range(epochs):
        for x, y in loader:
            opt.zero_grad()
            crit(model(x).squeeze(-1), y).backward()
            opt.step()


@torch.no_grad()
def score(model, loader):
    correct = total = 0
    for x, y in loader:
        pred = (model(x).squeeze(-1) > 0).float()
        correct += (pred == y).sum().item()
        total += y.numel()
    return correct / max(total, 1)


def cross_validate(dataset, k=5, epochs=3, lr=1e-3):
    model = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Dropout(0.1), nn.Linear(32, 1))
    fresh = {k_: v for k_, v in model.state_dict().items()}  # expect: TEN402
    scores = []
    for fold, (tr, va) in enumerate(kfold_indices(len(dataset), k)):
        model.load_state_dict(fresh)  # every fold should start from the same init
        train_loader = DataLoader(Subset(dataset, tr), batch_size=16, shuffle=True)
        val_loader = DataLoader(Subset(dataset, va), batch_size=64)
        train_one(model, train_loader, epochs, lr)
        s = score(model, val_loader)
        scores.append(s)
        print(f"fold {fold}: acc={s:.3f}")
    mean = sum(scores) / len(scores)
    std = (sum((s - mean) ** 2 for s in scores) / len(scores)) ** 0.5
    return mean, std


if __name__ == "__main__":
    torch.manual_seed(0)
    X = torch.randn(100, 6)
    Y = (X[:, 0] + X[:, 1] > 0).float()
    print(cross_validate(TensorDataset(X, Y), k=4, epochs=1))
