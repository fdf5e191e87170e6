import torch
import torch.nn as nn

from .snapshots import frozen_state
from .trainer import BaseTrainer

torch.manual_seed(0)
torch.set_num_threads(1)


class AnchoredTrainer(BaseTrainer):
    """Adds a penalty pulling the weights back towards where fine-tuning started."""

    def __init__(self, model, lr=0.05, pull=0.05):
        super().__init__(model, lr)
        self.pull = pull

    def loss(self, x, y):
        base = super().loss(x, y)
        drift = sum(((p - self._anchor[n]) ** 2).sum() for n, p in self.model.named_parameters())
        return base + self.pull * drift


def moons(n, noise=0.25):
    t = torch.rand(n) * 3.1416
    upper = torch.rand(n) > 0.5
    x = torch.where(upper[:, None], torch.stack([t.cos(), t.sin()], 1),
                    torch.stack([1 - t.cos(), 0.5 - t.sin()], 1))
    return x + noise * torch.randn(n, 2), upper.long()


def main():
    xtr, ytr = moons(300)
    xva, yva = moons(200)
    for cls in (BaseTrainer, AnchoredTrainer):
        torch.manual_seed(1)
        model = nn.Sequential(nn.Linear(2, 64), nn.ReLU(), nn.Linear(64, 2))
        reference = frozen_state(model)  # ok
        trainer = cls(model, lr=0.2)
        for ep in range(20):
            trainer.epoch(xtr, ytr)
            trainer.validate(xva, yva)
        trainer.restore_best()
        with torch.no_grad():
            restored = nn.functional.cross_entropy(model(xva), yva).item()
        drift = sum((p.detach() - reference[n]).norm().item() for n, p in model.named_parameters())
        print(f"{cls.__name__:15s} best val {trainer.best_loss:.4f} restored {restored:.4f} drift {drift:.3f}")
        trainer.restart()


if __name__ == "__main__":
    main()
