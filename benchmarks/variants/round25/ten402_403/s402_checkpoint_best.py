"""Keep the best checkpoint dict in memory; also serialize the best to a buffer."""
import io
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 1))
opt = torch.optim.Adam(model.parameters(), lr=0.05)
x = torch.randn(16, 5)
y = x[:, :1].abs() + 1.0 * torch.randn(16, 1)
xv = torch.randn(64, 5)
yv = xv[:, :1].abs()
best_ckpt, best_bytes, best = None, None, float("inf")
for epoch in range(60):
    opt.zero_grad()
    nn.functional.mse_loss(model(x), y).backward()
    opt.step()
    with torch.no_grad():
        v = nn.functional.mse_loss(model(xv), yv).item()
    if v < best:
        best = v
        best_ckpt = {"epoch": epoch, "model": model.state_dict(), "val": v}  # expect: TEN402
        best_bytes = io.BytesIO()
        torch.save({"epoch": epoch, "model": model.state_dict()}, best_bytes)  # ok
print("best epoch", best_ckpt["epoch"], "val", round(best, 6))
model.load_state_dict(best_ckpt["model"])
with torch.no_grad():
    print("reloaded (dict) val", round(nn.functional.mse_loss(model(xv), yv).item(), 6))
best_bytes.seek(0)
model.load_state_dict(torch.load(best_bytes)["model"])
with torch.no_grad():
    print("reloaded (bytes) val", round(nn.functional.mse_loss(model(xv), yv).item(), 6))
