"""Same training script as a careful user writes it."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


@torch.no_grad()
def evaluate(model, loader, criterion):
    model.eval()
    all_logits = []
    total_loss = 0.0
    for x, y in loader:
        logits = model(x)
        all_logits.append(logits)  # ok
        total_loss += criterion(logits, y)  # ok
    return torch.cat(all_logits), total_loss / len(loader)


def predict(model, loader):
    model.eval()
    outs = []
    with torch.inference_mode():
        for (x,) in loader:
            outs.append(model(x).softmax(-1))  # ok
    return torch.cat(outs)


def main():
    x = torch.randn(64, 20)
    y = (x[:, 0] > 0).long()
    loader = DataLoader(TensorDataset(x, y), batch_size=16)
    model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 2))
    crit = nn.CrossEntropyLoss()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(2):
        model.train()
        for xb, yb in loader:
            opt.zero_grad()
            crit(model(xb), yb).backward()
            opt.step()
        _, val_loss = evaluate(model, loader, crit)
        print(epoch, val_loss.item())
    probs = predict(model, DataLoader(TensorDataset(x), batch_size=16))
    print(probs.shape)


if __name__ == "__main__":
    main()
