import contextlib
import copy

import torch


class ExponentialMovingAverage:
    """Shadow copy of the parameters, swapped in for evaluation."""

    def __init__(self, model: torch.nn.Module, decay: float = 0.999):
        self.model = model
        self.decay = decay
        self.shadow = {k: v.detach().clone() for k, v in model.state_dict().items()}  # ok
        self.num_updates = 0

    @torch.no_grad()
    def update(self):
        self.num_updates += 1
        d = min(self.decay, (1 + self.num_updates) / (10 + self.num_updates))
        for k, v in self.model.state_dict().items():
            if v.dtype.is_floating_point:
                self.shadow[k].mul_(d).add_(v, alpha=1 - d)
            else:
                self.shadow[k].copy_(v)

    @contextlib.contextmanager
    def average_parameters(self):
        """Temporarily load the EMA weights; training weights come back on exit."""
        backup = self.model.state_dict()  # expect: TEN402
        self.model.load_state_dict(self.shadow)
        try:
            yield self.model
        finally:
            self.model.load_state_dict(backup)


class SafeEMA(ExponentialMovingAverage):
    @contextlib.contextmanager
    def average_parameters(self):
        backup = copy.deepcopy(self.model.state_dict())  # ok
        self.model.load_state_dict(self.shadow)
        try:
            yield self.model
        finally:
            self.model.load_state_dict(backup)


def train(model, loader, val_loader, epochs=10):
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    ema = ExponentialMovingAverage(model, decay=0.9995)
    for epoch in range(epochs):
        model.train()
        for x, y in loader:
            loss = torch.nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            ema.update()
        with ema.average_parameters() as m:
            m.eval()
            correct = total = 0
            with torch.no_grad():
                for x, y in val_loader:
                    correct += (m(x).argmax(1) == y).sum().item()
                    total += y.numel()
        print(f"epoch {epoch}: ema acc {correct / total:.3f}")
    return ema
