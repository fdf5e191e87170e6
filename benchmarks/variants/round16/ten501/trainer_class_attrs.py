"""Object-oriented trainer keeping its statistics as attributes."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Trainer:
    def __init__(self, model, lr=0.1, total_steps=40):
        self.model = model
        self.optimizer = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9, nesterov=True)
        self.scheduler = torch.optim.lr_scheduler.OneCycleLR(self.optimizer, max_lr=lr, total_steps=total_steps)
        self.total_loss = 0.0
        self.steps = 0
        self.lr_history = []
        self.best_loss = float("inf")
        self.grad_norms = []

    def loss_fn(self, logits, target):
        return F.cross_entropy(logits, target)

    def train_step(self, batch):
        self.model.train()
        x, y = batch
        loss = self.loss_fn(self.model(x), y)
        self.optimizer.zero_grad()
        loss.backward()
        self.grad_norms.append(torch.stack([p.grad.norm() for p in self.model.parameters()]).norm())  # ok
        self.optimizer.step()
        self.scheduler.step()

        self.total_loss += loss  # expect: TEN501
        self.steps += 1
        self.lr_history.append(self.optimizer.param_groups[0]["lr"])  # ok
        self.best_loss = loss if loss < self.best_loss else self.best_loss  # either
        return loss

    def average_loss(self):
        return self.total_loss / max(self.steps, 1)


def batches(n, bs=32):
    g = torch.Generator().manual_seed(7)
    for _ in range(n):
        x = torch.randn(bs, 2, generator=g)
        r = x.norm(dim=1)
        yield x, ((r > 0.8).long() + (r > 1.5).long())


if __name__ == "__main__":
    net = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 3))
    trainer = Trainer(net)
    for epoch in range(2):
        for batch in batches(20):
            trainer.train_step(batch)
        print(f"epoch {epoch}: avg loss {trainer.average_loss().item():.4f} "
              f"best {float(trainer.best_loss):.4f} lr {trainer.lr_history[-1]:.4f}")
