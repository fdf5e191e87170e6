"""Warm-restart training that keeps the best host-side copy of the weights."""
import torch
from torch import nn

from . import snapshots
from .snapshots import capture, capture_safe


def build(device):
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(6, 20), nn.GELU(), nn.Linear(20, 1)).to(device)


def train(device, mode):
    model = build(device)
    opt = torch.optim.AdamW(model.parameters(), lr=0.03)
    x = torch.randn(128, 6, device=device)
    y = torch.sin(x.sum(1, keepdim=True))
    xv = torch.randn(64, 6, device=device)
    yv = torch.sin(xv.sum(1, keepdim=True))
    init = capture_safe(model)  # ok
    best, best_blob, best_val = None, None, float("inf")
    for restart in range(3):
        for g in opt.param_groups:
            g["lr"] = 0.03 * (1.5 ** restart)
        for _ in range(8):
            loss = nn.functional.mse_loss(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            with torch.no_grad():
                val = nn.functional.mse_loss(model(xv), yv).item()
            if val < best_val:
                best_val = val
                if mode == "host":
                    best = capture(model)  # expect: TEN402
                else:
                    best_blob = snapshots.capture_bytes(model)  # ok
    if mode == "host":
        model.load_state_dict(best)
    else:
        snapshots.restore_bytes(model, best_blob)
    with torch.no_grad():
        reloaded = nn.functional.mse_loss(model(xv), yv).item()
    moved = snapshots.weight_distance(capture_safe(model), init)
    print(f"[{mode}] best val {best_val:.4f}, after reload {reloaded:.4f}, distance from init {moved:.3f}")


if __name__ == "__main__":
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    train(dev, "host")
    train(dev, "bytes")
