import torch
import torch.nn as nn

torch.manual_seed(0)

net = nn.Sequential(nn.Linear(5, 6), nn.BatchNorm1d(6), nn.ReLU(), nn.Linear(6, 1))
bn = net[1]
calib = torch.randn(256, 5) * 2 + 1

stats_now = {k: v for k, v in bn.named_buffers()}  # ok
print("initial running_mean sum %.5f var sum %.5f" % (stats_now["running_mean"].sum().item(),
                                                    stats_now["running_var"].sum().item()))

stats_before = {k: v for k, v in bn.named_buffers()}  # expect: TEN402
net.train()
with torch.no_grad():
    for chunk in calib.split(32):
        net(chunk)
shift = (bn.running_mean - stats_before["running_mean"]).abs().sum().item()
ratio = (bn.running_var / stats_before["running_var"]).mean().item()
print(f"recalibration moved running_mean by {shift:.5f}, var ratio {ratio:.5f}")
print("batches tracked", int(bn.num_batches_tracked))
