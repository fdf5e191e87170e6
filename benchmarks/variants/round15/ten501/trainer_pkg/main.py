"""Entry point: python -m trainer_pkg.main"""
import torch
import torch.nn as nn

from .callbacks import BestValueCallback, CallbackList, HistoryCallback
from .engine import Engine


def main(epochs=3):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 3))
    history_cb, best_cb = HistoryCallback(), BestValueCallback()
    engine = Engine(model, torch.optim.Adam(model.parameters(), lr=1e-2), CallbackList([history_cb, best_cb]))
    train = [(torch.randn(10, 8), torch.randint(0, 3, (10,))) for _ in range(3)]
    val = [(torch.randn(10, 8), torch.randint(0, 3, (10,))) for _ in range(2)]
    train_history, val_history = [], []
    for epoch in range(epochs):
        train_history.append(engine.train_epoch(train))  # expect: TEN501
        val_loss = engine.evaluate(val)
        val_history.append(val_loss)  # ok
        engine.callbacks.on_epoch_end(epoch, {"val_loss": val_loss, "train_acc": engine.acc_meter.avg})  # ok
        engine.step_outputs.clear()
    print(best_cb.best, len(history_cb.epoch_logs), engine.safe_meter.avg)


if __name__ == "__main__":
    main()
