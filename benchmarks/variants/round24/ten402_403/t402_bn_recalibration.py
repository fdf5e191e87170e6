"""Recalibrate BatchNorm statistics after weight averaging and report the shift."""
import torch
import torch.nn as nn

torch.manual_seed(0)


def bn_buffers(model):
    return {k: v for k, v in model.named_buffers() if "running" in k}  # either: TEN402


def recalibrate(model, loader):
    for m in model.modules():
        if isinstance(m, nn.BatchNorm1d):
            m.reset_running_stats()
            m.momentum = None
    model.train()
    with torch.no_grad():
        for xb in loader:
            model(xb)
    model.eval()


if __name__ == "__main__":
    model = nn.Sequential(nn.Linear(4, 6), nn.BatchNorm1d(6), nn.ReLU(), nn.Linear(6, 2))
    data = torch.randn(64, 4) * 3 + 1
    model.train()
    with torch.no_grad():
        for i in range(0, 64, 16):
            model(data[i:i + 16] * 0.5)
    stats_before = bn_buffers(model)  # expect: TEN402
    stats_copy = {k: v.clone() for k, v in bn_buffers(model).items()}  # ok
    var_ref = model[1].running_var  # expect: TEN402
    var_sum = model[1].running_var.sum().item()  # ok
    recalibrate(model, [data[i:i + 16] for i in range(0, 64, 16)])
    after = bn_buffers(model)
    for k in after:
        shift_a = (after[k] - stats_before[k]).abs().sum().item()
        shift_b = (after[k] - stats_copy[k]).abs().sum().item()
        print(f"{k}: shift(live) {shift_a:.6f} shift(copy) {shift_b:.6f}")
    print(f"var ratio(ref) {(after['1.running_var'].sum() / var_ref.sum()).item():.6f}")
    print(f"var ratio(sum) {(after['1.running_var'].sum() / var_sum).item():.6f}")
