"""A carefully written classification loop: everything kept across steps is plain data."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def to_float(x):
    return x.item() if torch.is_tensor(x) else float(x)


class Recorder:
    def __init__(self):
        self.rows = []

    def add(self, step, **scalars):
        self.rows.append({"step": step, **{k: to_float(v) for k, v in scalars.items()}})


class BestTracker:
    def __init__(self):
        self.best = float("inf")
        self.improvements = 0

    def __call__(self, loss):
        if loss < self.best:
            self.best = loss.item()
            self.improvements += 1


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(10, 40), nn.ReLU(), nn.Linear(40, 4))

    def forward(self, x):
        return self.net(x)

    @torch.no_grad()
    def predict(self, x):
        self.eval()
        return self.net(x).softmax(-1)


def main():
    x = torch.randn(320, 10)
    y = (x[:, :4] * torch.tensor([1.0, -1.0, 0.5, 2.0])).argmax(1)
    model = Classifier()
    opt = torch.optim.Adam(model.parameters(), lr=4e-3)
    recorder, tracker = Recorder(), BestTracker()
    loss_curve, per_sample_log, val_probs, snapshots = [], [], [], []

    for epoch in range(3):
        model.train()
        for i in range(0, 256, 32):
            xb, yb = x[i:i + 32], y[i:i + 32]
            per_sample = F.cross_entropy(model(xb), yb, reduction="none")
            loss = per_sample.mean()
            opt.zero_grad()
            loss.backward()
            opt.step()

            recorder.add(epoch * 8 + i // 32, loss=loss, lr=opt.param_groups[0]["lr"])  # ok
            tracker(loss)  # ok
            loss_curve.append(to_float(loss))  # ok
            per_sample_log.extend(per_sample.detach().tolist())  # ok
        val_probs.append(model.predict(x[256:]))  # ok
        snapshots.append({k: v.detach().clone() for k, v in model.named_parameters()})  # ok
        best_model = copy.deepcopy(model)  # ok
        acc = (val_probs[-1].argmax(1) == y[256:]).float().mean()
        print(f"epoch {epoch}: loss {loss_curve[-1]:.4f} best {tracker.best:.4f} val acc {acc.item():.3f}")
    print(len(recorder.rows), len(per_sample_log), sum(p.numel() for p in best_model.parameters()))


if __name__ == "__main__":
    main()
