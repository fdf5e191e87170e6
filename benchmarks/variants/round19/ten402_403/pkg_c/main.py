import torch
import torch.nn as nn

from . import checkpointing
from .regularizers import L2SP

torch.manual_seed(0)
torch.set_num_threads(1)


def main():
    model = nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Linear(8, 1))
    opt = torch.optim.Adam(model.parameters(), lr=0.2)
    reg, reg_naive = L2SP(model), L2SP(model, copy=False)
    backup = checkpointing.OptimizerBackup(opt, deep=False)
    backup_ok = checkpointing.OptimizerBackup(opt, deep=True)
    x, y = torch.randn(40, 5), torch.randn(40, 1)
    xv, yv = torch.randn(12, 5), torch.randn(12, 1)
    best, best_state, best_frozen, best_blob = float("inf"), None, None, None
    for epoch in range(12):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x), y) + reg(model)
        loss.backward()
        opt.step()
        with torch.no_grad():
            val = nn.functional.mse_loss(model(xv), yv).item()
        if val < best:
            best = val
            best_state = checkpointing.snapshot(model)  # expect: TEN402
            best_frozen = checkpointing.frozen_snapshot(model)  # ok
            best_blob = checkpointing.serialize(model)
            backup.save()
            backup_ok.save()
    naive_gap = sum((best_state[k] - best_frozen[k]).abs().sum().item() for k in best_frozen)
    loaded = checkpointing.deserialize(best_blob)
    model.load_state_dict(loaded)
    backup.restore()
    print(f"best val {best:.4f}; naive snapshot gap {naive_gap:.4f}; naive L2-SP {reg_naive(model).item():.4f}")
    print("optimizer steps in naive backup:", backup.saved["state"][0]["step"].item())
    backup_ok.restore()


if __name__ == "__main__":
    main()
