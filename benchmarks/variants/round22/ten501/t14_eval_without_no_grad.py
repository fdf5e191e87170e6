"""Validation helpers; some forget torch.no_grad and are only ever called with grad on."""
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


def evaluate(model, loader):
    model.eval()
    outs = []
    val_loss = 0.0
    for x, y in loader:
        logits = model(x)
        outs.append(logits)  # expect: TEN501
        val_loss += nn.functional.cross_entropy(logits, y)  # expect: TEN501
    model.train()
    return torch.cat(outs), val_loss / len(loader)


@torch.no_grad()
def evaluate_safe(model, loader):
    outs = []
    val_loss = 0.0
    for x, y in loader:
        logits = model(x)
        outs.append(logits)  # ok
        val_loss += nn.functional.cross_entropy(logits, y)  # ok
    return torch.cat(outs), val_loss / len(loader)


def evaluate_inference(model, loader):
    probs = []
    with torch.inference_mode():
        for x, _ in loader:
            probs.append(model(x).softmax(-1))  # ok
    return torch.cat(probs)


def evaluate_scalar(model, loader):
    total, n = 0.0, 0
    for x, y in loader:
        loss = nn.functional.cross_entropy(model(x), y, reduction="sum")
        total += loss.item()  # ok
        n += len(y)  # ok
    return total / n


def main():
    torch.manual_seed(0)
    x = torch.randn(64, 6)
    y = (x.sum(1) > 0).long()
    train = DataLoader(TensorDataset(x[:48], y[:48]), batch_size=12, shuffle=True)
    val = DataLoader(TensorDataset(x[48:], y[48:]), batch_size=4)
    model = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Dropout(0.1), nn.Linear(12, 2))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)

    history = []
    for epoch in range(3):
        for xb, yb in train:
            loss = nn.functional.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        logits, vloss = evaluate(model, val)
        logits2, vloss2 = evaluate_safe(model, val)
        probs = evaluate_inference(model, val)
        vs = evaluate_scalar(model, val)
        history.append((vloss2.item(), vs))  # ok
        print(epoch, round(vloss.item(), 4), round(vloss2.item(), 4), round(vs, 4), probs.shape)


if __name__ == "__main__":
    main()
