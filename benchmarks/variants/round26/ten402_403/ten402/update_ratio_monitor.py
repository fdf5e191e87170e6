import torch
import torch.nn as nn

torch.manual_seed(0)


class UpdateRatioMonitor:
    """Logs ||delta W|| / ||W|| per layer, like the classic 'update/weight ratio' diagnostic."""

    def __init__(self, model):
        self.model = model
        for name, p in model.named_parameters():
            setattr(self, self._key(name, "init"), p.detach().clone())  # ok

    @staticmethod
    def _key(name, tag):
        return f"{name.replace('.', '_')}_{tag}"

    def before_step(self):
        for name, p in self.model.named_parameters():
            setattr(self, self._key(name, "prev"), p.detach())  # expect: TEN402

    def after_step(self):
        ratios = {}
        for name, p in self.model.named_parameters():
            prev = getattr(self, self._key(name, "prev"))
            ratios[name] = ((p.detach() - prev).norm() / (prev.norm() + 1e-12)).item()
        return ratios

    def distance_from_init(self):
        return {n: (p.detach() - getattr(self, self._key(n, "init"))).norm().item()
                for n, p in self.model.named_parameters()}


model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
mon = UpdateRatioMonitor(model)
X, Y = torch.randn(128, 8), torch.randn(128, 1)
for it in range(20):
    opt.zero_grad()
    nn.functional.mse_loss(model(X), Y).backward()
    mon.before_step()
    opt.step()
    r = mon.after_step()
    if it % 5 == 4:
        print(f"iter {it}", {k: round(v, 6) for k, v in r.items()})
print({k: round(v, 6) for k, v in mon.distance_from_init().items()})
