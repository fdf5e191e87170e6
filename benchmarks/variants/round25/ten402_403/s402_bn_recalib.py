"""Recalibrate BatchNorm statistics on a target domain, then compare / restore source stats."""
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.bn = nn.BatchNorm1d(16)
        self.fc2 = nn.Linear(16, 2)

    def forward(self, x):
        return self.fc2(torch.relu(self.bn(self.fc1(x))))


def bn_buffers(model):
    return {k: v for k, v in model.state_dict().items() if "running" in k}  # expect: TEN402


def bn_buffers_copy(model):
    return {k: v.clone() for k, v in model.state_dict().items() if "running" in k}  # ok


@torch.no_grad()
def recalibrate(model, batches):
    model.train()
    model.bn.reset_running_stats()
    model.bn.momentum = None
    for b in batches:
        model(b)
    model.eval()


torch.manual_seed(0)
net = Net()
src = torch.randn(256, 8)
tgt = torch.randn(256, 8) * 2.5 + 1.0
with torch.no_grad():
    net.train()
    for i in range(0, 256, 32):
        net(src[i:i + 32])
net.eval()
source_stats = bn_buffers(net)  # either: TEN402
source_stats2 = bn_buffers_copy(net)
recalibrate(net, tgt.split(32))
shift = sum((net.state_dict()[k].float() - source_stats[k].float()).abs().sum().item() for k in source_stats)
shift2 = sum((net.state_dict()[k].float() - source_stats2[k].float()).abs().sum().item() for k in source_stats2)
print("stat shift (aliased)", round(shift, 5), "stat shift (copied)", round(shift2, 5))
with torch.no_grad():
    out_tgt = net(tgt).mean().item()
    net.load_state_dict(source_stats, strict=False)
    print("target-stat output", round(out_tgt, 6), "after restoring source stats", round(net(src).mean().item(), 6))
