import torch
import torch.nn as nn

from .callbacks import BestCheckpoint, HistoryCallback
from .engine import run_epoch, validate
from .meters import MetricTracker


def main():
    torch.manual_seed(0)
    x, y = torch.randn(96, 7), torch.randint(0, 3, (96,))
    train = [(x[i:i + 16], y[i:i + 16]) for i in range(0, 64, 16)]
    val = [(x[i:i + 16], y[i:i + 16]) for i in range(64, 96, 16)]
    model = nn.Sequential(nn.Linear(7, 20), nn.ReLU(), nn.Linear(20, 3))
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    tracker, tracker_ok = MetricTracker("loss"), MetricTracker("loss", "correct")
    history, history_ok = HistoryCallback(), HistoryCallback()
    ckpt, ckpt_ok = BestCheckpoint(), BestCheckpoint()
    step = 0
    for epoch in range(4):
        step = run_epoch(model, opt, train, tracker, tracker_ok, history, history_ok, step)
        val_loss_t, val_loss = validate(model, val)
        ckpt.on_epoch_end(epoch, val_loss_t, model)  # expect: TEN501
        ckpt_ok.on_epoch_end(epoch, val_loss, model)  # ok
        print(epoch, round(tracker_ok.avg("loss"), 4), round(val_loss, 4), round(tracker.avg("loss"), 4))
    print("steps logged", len(history.steps), len(history_ok.steps), "best", round(ckpt_ok.best_loss, 4))


if __name__ == "__main__":
    main()
