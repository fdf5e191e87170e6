import torch
import torch.nn as nn

torch.manual_seed(0)


class WeightSnapshot:
    """Read-only view of a module's weights at some point of training."""

    def __init__(self, module, tag):
        self.tag = tag
        self._state = module.state_dict()  # expect: TEN402

    @property
    def state(self):
        return self._state

    def l2_to(self, module):
        cur = module.state_dict()
        return sum((cur[k] - v).pow(2).sum() for k, v in self._state.items()).sqrt().item()


class FrozenSnapshot(WeightSnapshot):
    def __init__(self, module, tag):
        self.tag = tag
        self._state = {k: v.detach().clone() for k, v in module.state_dict().items()}  # ok


model = nn.Sequential(nn.Linear(5, 5), nn.Tanh(), nn.Linear(5, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.3)
X = torch.randn(40, 5)
Y = X[:, :1] - X[:, 1:2]
snaps = []
for ep in range(12):
    if ep % 4 == 0:
        snaps.append(WeightSnapshot(model, f"ep{ep}"))  # either: TEN402
        snaps.append(FrozenSnapshot(model, f"ep{ep}-frozen"))  # ok
    opt.zero_grad()
    nn.functional.mse_loss(model(X), Y).backward()
    opt.step()

for s in snaps:
    print(f"{s.tag:>10}: distance to final {s.l2_to(model):.6f}")
