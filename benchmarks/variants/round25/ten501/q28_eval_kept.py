import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def evaluate(model, loader):
    model.eval()
    total = 0.0
    for xb, yb in loader:
        total = total + F.cross_entropy(model(xb), yb, reduction="sum")  # expect: TEN501
    return total / sum(len(y) for _, y in loader)


def evaluate_nograd(model, loader):
    model.eval()
    total = 0.0
    with torch.no_grad():
        for xb, yb in loader:
            total = total + F.cross_entropy(model(xb), yb, reduction="sum")  # ok
    return total / sum(len(y) for _, y in loader)


def main():
    xs, ys = torch.randn(90, 5), torch.randint(0, 3, (90,))
    train_loader = [(xs[i:i + 15], ys[i:i + 15]) for i in range(0, 60, 15)]
    val_loader = [(xs[i:i + 15], ys[i:i + 15]) for i in range(60, 90, 15)]
    model = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 3))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    val_history, val_history_ok = [], []
    last_train_loss = []
    for epoch in range(4):
        model.train()
        for xb, yb in train_loader:
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        last_train_loss.append(loss)  # expect: TEN501
        val_history.append(evaluate(model, val_loader))  # expect: TEN501
        val_history_ok.append(evaluate_nograd(model, val_loader))  # ok
        print(epoch, round(val_history_ok[-1].item(), 4))
    best = min(range(len(val_history)), key=lambda i: float(val_history[i]))
    print("best epoch", best)


main()
