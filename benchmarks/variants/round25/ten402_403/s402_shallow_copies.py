# four ways people "copy" a state dict, compared after training
import copy
import torch
import torch.nn as nn

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(3, 6), nn.ReLU(), nn.Linear(6, 1))
sd = net.state_dict()
snap_dict = dict(sd)  # expect: TEN402
snap_method = sd.copy()  # expect: TEN402
snap_copy = copy.copy(sd)  # expect: TEN402
snap_deep = copy.deepcopy(sd)  # ok
snap_clone = {k: v.clone() for k, v in sd.items()}  # ok
snap_detach_clone = {k: v.detach().clone() for k, v in sd.items()}  # ok

opt = torch.optim.SGD(net.parameters(), lr=0.2)
x = torch.randn(32, 3)
for _ in range(10):
    opt.zero_grad()
    net(x).pow(2).mean().backward()
    opt.step()

cur = net.state_dict()
for name, snap in [("dict()", snap_dict), (".copy()", snap_method), ("copy.copy", snap_copy),
                   ("deepcopy", snap_deep), ("clone", snap_clone), ("detach.clone", snap_detach_clone)]:
    print(f"{name:14s} distance to current {sum((cur[k] - snap[k]).norm().item() for k in cur):.6f}")
