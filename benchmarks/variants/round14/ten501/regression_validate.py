"""Regression train/validate loop with two versions of the validation routine."""
import torch
import torch.nn as nn


def make_split(n, w, noise=0.1):
    x = torch.randn(n, w.size(0))
    return x, x @ w + noise * torch.randn(n, 1)


def batches(x, y, bs=16):
    return [(x[i:i + bs], y[i:i + bs]) for i in range(0, len(x), bs)]


def evaluate(model, loader, criterion):
    model.eval()
    val_loss = 0.0
    outs, tgts = [], []
    for xb, yb in loader:
        out = model(xb)
        val_loss += criterion(out, yb)  # expect: TEN501
        outs.append(out)  # expect: TEN501
        tgts.append(yb)  # ok
    model.train()
    preds, targets = torch.cat(outs), torch.cat(tgts)
    return {"loss": val_loss / len(loader), "r2": 1 - ((preds - targets) ** 2).sum() / ((targets - targets.mean()) ** 2).sum()}


@torch.no_grad()
def evaluate_v2(model, loader, criterion):
    model.eval()
    val_loss = 0.0
    outs = []
    for xb, yb in loader:
        out = model(xb)
        val_loss += criterion(out, yb)  # ok
        outs.append(out)  # ok
    model.train()
    return {"loss": val_loss / len(loader), "n": sum(o.size(0) for o in outs)}


def main(epochs=3):
    torch.manual_seed(0)
    w = torch.randn(4, 1)
    train = batches(*make_split(96, w))
    val = batches(*make_split(48, w))
    model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))
    criterion = nn.MSELoss()
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    val_curve, v2_curve = [], []
    for epoch in range(epochs):
        for xb, yb in train:
            loss = criterion(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        metrics = evaluate(model, val, criterion)
        v2 = evaluate_v2(model, val, criterion)
        val_curve.append(metrics["loss"])  # expect: TEN501
        v2_curve.append(v2["loss"])  # ok
        print(f"epoch {epoch}: val={metrics['loss'].item():.4f} r2={metrics['r2'].item():.3f} "
              f"v2={v2['loss'].item():.4f}")


if __name__ == "__main__":
    main()
