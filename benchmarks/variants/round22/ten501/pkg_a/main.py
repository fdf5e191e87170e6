"""python -m pkg_a.main"""
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

from .engine import evaluate, evaluate_safe, train_one_epoch
from .meters import History, RunningAverage, ScalarHistory


def main():
    torch.manual_seed(0)
    x = torch.randn(60, 5)
    y = x.pow(2).sum(1, keepdim=True)
    train = DataLoader(TensorDataset(x[:40], y[:40]), batch_size=10, shuffle=True)
    val = DataLoader(TensorDataset(x[40:], y[40:]), batch_size=10)
    model = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    hist, scalar_hist = History(), ScalarHistory()

    summaries, summaries_f = [], []
    for epoch in range(3):
        meter = train_one_epoch(model, train, opt, RunningAverage(), hist, scalar_hist)
        summaries.append(meter.mean)  # expect: TEN501
        summaries_f.append(float(meter.mean.detach()))  # ok
        v1 = evaluate(model, val, RunningAverage())
        v2 = evaluate_safe(model, val, RunningAverage())
        print(epoch, round(summaries_f[-1], 4), round(v1.item(), 4), round(v2.item(), 4))
    print(len(hist.data["loss"]), len(scalar_hist.data["loss"]), len(summaries))


if __name__ == "__main__":
    main()
