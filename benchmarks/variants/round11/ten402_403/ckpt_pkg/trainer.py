import torch
import torch.nn as nn
import torch.nn.functional as F

from .snapshot import cpu_snapshot, restore, safe_snapshot, take_snapshot


def resnet_ish(num_classes=10):
    return nn.Sequential(
        nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
        nn.Conv2d(32, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, num_classes),
    )


class Trainer:
    def __init__(self, model, lr=0.1):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9, nesterov=True)
        self.best_acc = 0.0
        self.best_state = None
        self.initial = safe_snapshot(model)  # ok

    def run_epoch(self, n_batches=30):
        self.model.train()
        for _ in range(n_batches):
            x = torch.randn(32, 3, 32, 32)
            y = torch.randint(0, 10, (32,))
            loss = F.cross_entropy(self.model(x), y)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()

    @torch.no_grad()
    def validate(self):
        self.model.eval()
        x = torch.randn(256, 3, 32, 32)
        y = torch.randint(0, 10, (256,))
        return (self.model(x).argmax(1) == y).float().mean().item()

    def fit(self, epochs=10):
        for epoch in range(epochs):
            self.run_epoch()
            acc = self.validate()
            if acc > self.best_acc:
                self.best_acc = acc
                self.best_state = take_snapshot(self.model)  # expect: TEN402
                latest_on_cpu = cpu_snapshot(self.model)  # ok
                torch.save(latest_on_cpu, "best.pt")
            print(f"epoch {epoch} acc {acc:.3f}")
        restore(self.model, self.best_state)
        return self.best_acc


if __name__ == "__main__":
    Trainer(resnet_ish()).fit(3)
