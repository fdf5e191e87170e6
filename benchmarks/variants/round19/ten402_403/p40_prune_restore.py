"""Iterative magnitude pruning that can undo the last pruning round."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

layer = nn.Linear(8, 8)
X = torch.randn(20, 8)
ref_out = layer(X).detach()


def prune_(module, frac):
    w = module.weight.data
    thr = w.abs().flatten().kthvalue(int(frac * w.numel())).values
    w.mul_((w.abs() > thr).float())


history = []
for frac in (0.2, 0.4, 0.6):
    backup = layer.weight.data  # expect: TEN402
    backup_ok = layer.weight.detach().clone()  # ok
    prune_(layer, frac)
    err = (layer(X) - ref_out).pow(2).mean().item()
    history.append((frac, err))
    if err > 0.05:
        restored_naive = (backup != 0).float().mean().item()
        layer.weight.data.copy_(backup_ok)
        print(f"frac={frac}: err {err:.4f} too high, undo; naive backup density {restored_naive:.2f}")
        break
print("history", [(f, round(e, 4)) for f, e in history])
