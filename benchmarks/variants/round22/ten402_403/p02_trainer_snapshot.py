"""A small Trainer object whose `snapshot()` is used for learning-rate probing."""
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)


class Trainer:
    def __init__(self, model, lr):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=lr)

    def snapshot(self):
        """State to come back to after a probe run."""
        return self.model.state_dict()  # expect: TEN402

    def snapshot_detached(self):
        return {k: v.detach().clone() for k, v in self.model.state_dict().items()}  # ok

    def rollback(self, state):
        self.model.load_state_dict(state)

    def set_lr(self, lr):
        for g in self.opt.param_groups:
            g["lr"] = lr

    def train_steps(self, x, y, n):
        for _ in range(n):
            self.opt.zero_grad()
            loss = F.cross_entropy(self.model(x), y)
            loss.backward()
            self.opt.step()
        return loss.item()

    @torch.no_grad()
    def evaluate(self, x, y):
        return F.cross_entropy(self.model(x), y).item()


x = torch.randn(128, 10)
y = (x[:, :3].sum(1) > 0).long() + (x[:, 3] > 1).long()
model = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 3))
trainer = Trainer(model, lr=0.05)
trainer.train_steps(x, y, 5)

# probe a few learning rates from the same starting point, keep the best
start = trainer.snapshot()  # either: TEN402
reference = trainer.snapshot_detached()  # ok
results = {}
for lr in (0.01, 0.1, 1.0):
    trainer.rollback(start)
    trainer.set_lr(lr)
    trainer.train_steps(x, y, 10)
    results[lr] = trainer.evaluate(x, y)
    print(f"lr={lr:<5} loss after probe {results[lr]:.5f}")

best_lr = min(results, key=results.get)
trainer.rollback(start)
drift = sum((model.state_dict()[k] - reference[k]).abs().sum().item() for k in reference)
print(f"best lr {best_lr}; distance from probe start after rollback {drift:.5f}")
