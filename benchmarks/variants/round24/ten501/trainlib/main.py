"""python -m trainlib.main"""
import torch
import torch.nn as nn

from . import engine, history
from .meters import EpochTracker, build_meters


def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(10, 20), nn.ReLU(), nn.Linear(20, 3))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    train = [(torch.randn(8, 10), torch.randint(0, 3, (8,))) for _ in range(3)]
    val = [(torch.randn(8, 10), torch.randint(0, 3, (8,))) for _ in range(2)]
    tracker, tracker_ok = EpochTracker(), EpochTracker()
    val_curve, val_curve_ok = [], []
    for epoch in range(3):
        meters = build_meters(["loss", "acc"])
        engine.train_one_epoch(model, train, opt, meters)
        tracker.add_epoch(epoch, meters["loss"].avg)  # expect: TEN501
        tracker_ok.add_epoch(epoch, meters["acc"].avg)  # ok
        val_curve.append(engine.evaluate(model, val))  # expect: TEN501
        val_curve_ok.append(engine.evaluate_safe(model, val))  # ok
    print(history.summary(), float(val_curve[-1]), float(val_curve_ok[-1]))


if __name__ == "__main__":
    main()
