"""Parameter EMA with a context manager that temporarily evaluates the averaged weights."""
import contextlib

import torch
import torch.nn as nn
import torch.nn.functional as F


class ParamEMA:
    def __init__(self, params, decay=0.995, warmup=True):
        self.params = [p for p in params if p.requires_grad]
        self.shadow = [p.detach().clone() for p in self.params]  # ok
        self.decay = decay
        self.warmup = warmup
        self.num_updates = 0

    def _decay(self):
        if not self.warmup:
            return self.decay
        return min(self.decay, (1 + self.num_updates) / (10 + self.num_updates))

    @torch.no_grad()
    def update(self):
        self.num_updates += 1
        d = self._decay()
        torch._foreach_mul_(self.shadow, d)
        torch._foreach_add_(self.shadow, [p.detach() for p in self.params], alpha=1 - d)  # ok: used at once

    @contextlib.contextmanager
    def average_parameters(self):
        stored = [p.detach().clone() for p in self.params]  # ok
        try:
            with torch.no_grad():
                for p, s in zip(self.params, self.shadow):
                    p.copy_(s)
            yield
        finally:
            with torch.no_grad():
                for p, s in zip(self.params, stored):
                    p.copy_(s)

    def state_dict(self):
        return {"shadow": [s.clone() for s in self.shadow], "num_updates": self.num_updates}


def train(model, loader, epochs=3):
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    ema = ParamEMA(model.parameters())
    for epoch in range(epochs):
        for x, y in loader:
            opt.zero_grad()
            F.cross_entropy(model(x), y).backward()
            opt.step()
            ema.update()
        with ema.average_parameters(), torch.no_grad():
            ema_loss = sum(F.cross_entropy(model(x), y).item() for x, y in loader)
        with torch.no_grad():
            raw_loss = sum(F.cross_entropy(model(x), y).item() for x, y in loader)
        print(f"epoch {epoch}: raw {raw_loss:.3f} ema {ema_loss:.3f}")
    return ema


if __name__ == "__main__":
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 3))
    data = [(torch.randn(12, 6), torch.randint(0, 3, (12,))) for _ in range(5)]
    train(net, data)
