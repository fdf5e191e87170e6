"""Re-calibrate BatchNorm statistics on new data and report how much they moved."""
import torch
import torch.nn as nn

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 2))
bn = model[1]
with torch.no_grad():
    model.train()
    for _ in range(3):
        model(torch.randn(16, 4))

stats_before = bn.running_mean  # expect: TEN402
var_before = bn.running_var.clone()  # ok

model.train()  # calibration pass on shifted data
with torch.no_grad():
    for _ in range(5):
        model(torch.randn(16, 4) * 2 + 1)

print("running_mean shift: %.6f" % (bn.running_mean - stats_before).abs().max().item())
print("running_var shift: %.6f" % (bn.running_var - var_before).abs().max().item())

# an eval-mode model does not touch its buffers, so a live reference is fine
frozen = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8)).eval()
eval_mean = frozen[1].running_mean  # ok
with torch.no_grad():
    frozen(torch.randn(16, 4) + 5)
print("eval-mode shift: %.6f" % (frozen[1].running_mean - eval_mean).abs().max().item())
