"""Re-estimate BatchNorm statistics on a shifted domain, then roll them back."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


def make_net():
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 2))
    net.train()
    with torch.no_grad():
        for _ in range(20):
            net(torch.randn(32, 4))  # source-domain statistics
    return net


def recalibrate(net, x):
    net.train()
    with torch.no_grad():
        for _ in range(20):
            net(x)
    net.eval()


shifted = torch.randn(32, 4) * 3 + 2

# variant A: keep the buffers themselves
net = make_net()
bn = net[1]
mean0, var0 = bn.running_mean, bn.running_var  # expect: TEN402
recalibrate(net, shifted)
bn.running_mean.copy_(mean0)
bn.running_var.copy_(var0)
print("A: rolled-back mean is the shifted one:", bn.running_mean.abs().max().item() > 1.0)

# variant B: keep every buffer by name
net = make_net()
bufs = {n: b for n, b in net.named_buffers()}  # expect: TEN402
recalibrate(net, shifted)
net.load_state_dict(bufs, strict=False)
print("B: rolled-back mean is the shifted one:", net[1].running_mean.abs().max().item() > 1.0)

# variant C: clone them
net = make_net()
saved = {n: b.clone() for n, b in net.named_buffers()}  # ok
recalibrate(net, shifted)
net.load_state_dict(saved, strict=False)
print("C: rolled-back mean is the shifted one:", net[1].running_mean.abs().max().item() > 1.0,
      "tracked batches:", int(net[1].num_batches_tracked))
