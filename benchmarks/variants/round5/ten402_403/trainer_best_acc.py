"""Plain research-style fit() loop that keeps the best-accuracy weights."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


@torch.no_grad()
def evaluate(model, loader, device):
    model.eval()
    correct, total = 0, 0
    for xb, yb in loader:
        xb, yb = xb.to(device), yb.to(device)
        correct += (model(xb).argmax(1) == yb).sum().item()
        total += yb.numel()
    return correct / max(total, 1)


def fit(model, train_loader, val_loader, epochs=20, lr=1e-3, device="cpu", log_every=5):
    model.to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-2)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=epochs)
    best_acc, best_epoch, best_sd = -1.0, -1, None
    history = []
    for epoch in range(epochs):
        model.train()
        running = 0.0
        for xb, yb in train_loader:
            xb, yb = xb.to(device), yb.to(device)
            opt.zero_grad(set_to_none=True)
            loss = F.cross_entropy(model(xb), yb)
            loss.backward()
            opt.step()
            running += loss.item()
        sched.step()
        acc = evaluate(model, val_loader, device)
        history.append((epoch, running / len(train_loader), acc))
        if acc > best_acc:
            best_acc, best_epoch = acc, epoch
            best_sd = dict(model.state_dict())  # expect: TEN402
        if epoch % log_every == 0:
            print(f"epoch {epoch:3d} loss {running / len(train_loader):.4f} acc {acc:.3f}")

    last_sd = {k: v.detach().clone() for k, v in model.state_dict().items()}  # ok
    if best_sd is not None:
        model.load_state_dict(best_sd)
    return model, last_sd, best_acc, best_epoch, history


def make_loaders(n=256, d=10, classes=3, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, d, generator=g)
    w = torch.randn(d, classes, generator=g)
    y = (x @ w + 0.8 * torch.randn(n, classes, generator=g)).argmax(1)
    train = TensorDataset(x[: n // 2], y[: n // 2])
    val = TensorDataset(x[n // 2:], y[n // 2:])
    return DataLoader(train, batch_size=32, shuffle=True), DataLoader(val, batch_size=64)


if __name__ == "__main__":
    torch.manual_seed(1)
    tl, vl = make_loaders(seed=3)
    net = nn.Sequential(nn.Linear(10, 64), nn.ReLU(), nn.Linear(64, 3))
    net, last, acc, ep, hist = fit(net, tl, vl, epochs=25, lr=3e-2)
    print(f"best acc {acc:.3f} at epoch {ep}; restored acc {evaluate(net, vl, 'cpu'):.3f}")
