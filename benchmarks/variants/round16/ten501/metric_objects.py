"""Two-headed model evaluated with small torchmetrics-like metric classes."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Metric:
    def __init__(self):
        self.reset()

    def __call__(self, *args):
        self.update(*args)
        return self


class Accuracy(Metric):
    def reset(self):
        self.correct = torch.tensor(0)
        self.total = 0

    def update(self, preds, target):
        self.correct += (preds.argmax(dim=-1) == target).sum()
        self.total += target.numel()

    def compute(self):
        return self.correct.float() / max(self.total, 1)


class MeanSquaredError(Metric):
    def reset(self):
        self.sum_squared_error = torch.tensor(0.0)
        self.total = 0

    def update(self, preds, target):
        self.sum_squared_error += (preds - target).pow(2).sum()
        self.total += target.numel()

    def compute(self):
        return self.sum_squared_error / max(self.total, 1)


class CatMetric(Metric):
    def reset(self):
        self.values = []

    def update(self, value):
        self.values.append(value)

    def compute(self):
        return torch.cat(self.values) if self.values else torch.empty(0)


class TwoHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(8, 32), nn.SiLU())
        self.cls = nn.Linear(32, 2)
        self.reg = nn.Linear(32, 1)

    def forward(self, x):
        h = self.trunk(x)
        return self.cls(h), self.reg(h).squeeze(-1)


def make_split(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 8, generator=g)
    return x, (x[:, 0] * x[:, 1] > 0).long(), x[:, 2] - 0.5 * x[:, 3]


def main():
    model = TwoHead()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    x_tr, y_tr, t_tr = make_split(256, 1)
    x_va, y_va, t_va = make_split(64, 2)

    for epoch in range(2):
        train_acc, train_mse, train_scores = Accuracy(), MeanSquaredError(), CatMetric()
        for i in range(0, 256, 32):
            xb, yb, tb = x_tr[i:i + 32], y_tr[i:i + 32], t_tr[i:i + 32]
            logits, reg = model(xb)
            loss = F.cross_entropy(logits, yb) + F.mse_loss(reg, tb)
            opt.zero_grad()
            loss.backward()
            opt.step()

            train_acc.update(logits, yb)  # ok
            train_mse.update(reg, tb)  # expect: TEN501
            train_scores.update(logits.softmax(-1)[:, 1].detach())  # ok

        val_acc, val_mse, val_scores = Accuracy(), MeanSquaredError(), CatMetric()
        with torch.no_grad():
            for i in range(0, 64, 16):
                logits, reg = model(x_va[i:i + 16])
                val_acc(logits, y_va[i:i + 16])  # ok
                val_mse(reg, t_va[i:i + 16])  # ok
                val_scores.update(logits.softmax(-1)[:, 1])  # ok
        print(f"epoch {epoch}: train acc {train_acc.compute().item():.3f} mse {train_mse.compute().item():.3f} | "
              f"val acc {val_acc.compute().item():.3f} mse {val_mse.compute().item():.3f} "
              f"mean score {val_scores.compute().mean().item():.3f}")


if __name__ == "__main__":
    main()
