import torch
import torch.nn as nn

torch.manual_seed(0)


def snapshot(model):
    return model.state_dict(keep_vars=True)  # expect: TEN402


def snapshot_detached(model):
    return {k: v.detach().clone() for k, v in model.state_dict(keep_vars=True).items()}  # ok


model = nn.Sequential(nn.Linear(7, 14), nn.ReLU(), nn.Linear(14, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.6)
X = torch.randn(50, 7)
Y = torch.tanh(X[:, :1] * 3)
best_loss, best, restarts = float("inf"), None, 0
init = snapshot_detached(model)  # ok
bad = 0
for step in range(40):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(X), Y)
    loss.backward()
    opt.step()
    if loss.item() < best_loss - 1e-4:
        best_loss, bad = loss.item(), 0
        best = snapshot(model)  # either: TEN402
    else:
        bad += 1
    if bad >= 3:
        with torch.no_grad():
            for k, p in model.state_dict(keep_vars=True).items():
                p.copy_(best[k])
        for g in opt.param_groups:
            g["lr"] *= 0.5
        restarts += 1
        bad = 0

print("restarts", restarts, "lr", opt.param_groups[0]["lr"])
with torch.no_grad():
    print(f"best {best_loss:.6f} final {nn.functional.mse_loss(model(X), Y).item():.6f}")
    print(f"moved from init {sum((p - init[k]).norm() for k, p in model.state_dict().items()).item():.6f}")
