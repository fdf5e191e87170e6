import io
from collections import OrderedDict
import torch
import torch.nn as nn

torch.manual_seed(0)


class Snapshotter:
    """Keeps named snapshots of a module."""

    def __init__(self):
        self.store = {}

    @staticmethod
    def take(module):
        return OrderedDict(module.state_dict())  # expect: TEN402

    @staticmethod
    def take_serialized(module):
        buf = io.BytesIO()
        torch.save(module.state_dict(), buf)
        buf.seek(0)
        return torch.load(buf)  # ok

    def keep(self, name, module, serialized=False):
        snap = self.take_serialized(module) if serialized else self.take(module)  # either: TEN402
        self.store[name] = snap


net = nn.Sequential(nn.Conv1d(2, 4, 3, padding=1), nn.ReLU(), nn.Flatten(), nn.Linear(4 * 12, 1))
opt = torch.optim.SGD(net.parameters(), lr=0.02)
x = torch.randn(24, 2, 12)
y = x.mean((1, 2))[:, None] * 3
snaps = Snapshotter()
snaps.keep("init", net)
snaps.keep("init_ser", net, serialized=True)
for _ in range(25):
    opt.zero_grad()
    nn.functional.mse_loss(net(x), y).backward()
    opt.step()
with torch.no_grad():
    for name in ("init", "init_ser"):
        d = sum((snaps.store[name][k] - v).abs().sum() for k, v in net.state_dict().items())
        print(f"{name}: distance to trained {d.item():.5f}")
