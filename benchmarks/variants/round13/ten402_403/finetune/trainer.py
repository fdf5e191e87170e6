"""Head-then-full fine-tuning with a restart from the best head-only weights."""
import torch
from torch import nn
import torch.nn.functional as F

from .snapshots import diff_norm, frozen_copy, serialized_snapshot, state_snapshot, trainable_snapshot


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 16), nn.ReLU())
        self.head = nn.Linear(16, 3)

    def forward(self, x):
        return self.head(self.body(x))


class FineTuner:
    def __init__(self, model, data, lr=0.05):
        self.model = model
        self.x, self.y = data
        self.lr = lr
        self.reference = frozen_copy(model)  # ok

    def _epoch(self, opt):
        for idx in torch.randperm(len(self.x)).split(16):
            opt.zero_grad()
            F.cross_entropy(self.model(self.x[idx]), self.y[idx]).backward()
            opt.step()

    @torch.no_grad()
    def val_loss(self):
        return F.cross_entropy(self.model(self.x), self.y).item()

    def stage_head(self, epochs=3):
        for p in self.model.body.parameters():
            p.requires_grad_(False)
        opt = torch.optim.SGD(self.model.head.parameters(), lr=self.lr)
        best, best_loss = None, float("inf")
        for _ in range(epochs):
            self._epoch(opt)
            loss = self.val_loss()
            if loss < best_loss:
                best_loss, best = loss, state_snapshot(self.model, prefix="head.")  # expect: TEN402
        return best

    def stage_full(self, epochs=3):
        for p in self.model.parameters():
            p.requires_grad_(True)
        start = trainable_snapshot(self.model)  # ok
        before_full = serialized_snapshot(self.model)  # ok
        opt = torch.optim.SGD(self.model.parameters(), lr=self.lr * 0.5)
        for _ in range(epochs):
            self._epoch(opt)
        moved = diff_norm(start, {n: p for n, p in self.model.named_parameters()})  # ok
        return moved, before_full

    def run(self):
        best_head = self.stage_head()
        self.model.load_state_dict(best_head, strict=False)
        moved, before_full = self.stage_full()
        drift = diff_norm(self.reference.state_dict(), self.model.state_dict())
        return best_head, moved, drift, before_full


def demo(seed=0):
    torch.manual_seed(seed)
    x = torch.randn(96, 8)
    y = x[:, :3].argmax(1)
    tuner = FineTuner(Backbone(), (x, y))
    return tuner, tuner.run()


if __name__ == "__main__":
    _, (best_head, moved, drift, _) = demo()
    print("moved during full stage", round(moved, 4), "drift from reference", round(drift, 4))
