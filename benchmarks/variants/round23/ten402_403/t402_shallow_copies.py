"""Different ways people 'copy' a state dict before an update."""
import copy
from collections import OrderedDict

import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Conv1d(2, 3, 3), nn.ReLU(), nn.Flatten(), nn.Linear(3 * 6, 2))
sd = model.state_dict()
snap_copy = copy.copy(sd)  # expect: TEN402
snap_method = sd.copy()  # expect: TEN402
snap_ordered = OrderedDict(sd)  # expect: TEN402
snap_deep = copy.deepcopy(sd)  # ok

opt = torch.optim.Adam(model.parameters(), lr=0.01)
x = torch.randn(5, 2, 8)
for _ in range(2):
    opt.zero_grad()
    model(x).pow(2).mean().backward()
    opt.step()


def moved(snap):
    return sum((model.state_dict()[k] - snap[k]).abs().sum().item() for k in snap)


print("copy.copy moved: %.6f" % moved(snap_copy))
print("dict.copy moved: %.6f" % moved(snap_method))
print("OrderedDict moved: %.6f" % moved(snap_ordered))
print("deepcopy moved: %.6f" % moved(snap_deep))
