import torch

from .callbacks import BestKeeper, InitAnchor, RunningAverage
from .models import TinyConvNet
from .snapshots import capture, capture_bytes, l2, load_bytes
from .trainer import Trainer


def main():
    torch.manual_seed(0)
    x = torch.randn(96, 1, 8, 8)
    y = (x[:, 0, :4].mean((1, 2)) > 0).long() + (x[:, 0, 4:].mean((1, 2)) > 0.1).long()
    xtr, ytr, xva, yva = x[:48], y[:48], x[48:], y[48:]
    model = TinyConvNet()
    start_blob = capture_bytes(model)
    best, anchor, avg = BestKeeper(), InitAnchor(), RunningAverage(start=10)
    trainer = Trainer(model, [best, anchor, avg], lr=0.15)
    final = trainer.fit(xtr, ytr, xva, yva, epochs=25)
    print(f"final train loss {final:.6f} rollbacks {trainer.rollbacks}")
    print(f"best epoch {best.best_epoch} best val {best.best_loss:.6f}")
    now = capture(model)  # either: TEN402
    print(f"distance best->final {l2(best.best, now):.6f}")
    print(f"distance init->final {l2(anchor.init, now):.6f}")
    model.load_state_dict(best.best)
    print(f"val after loading best {trainer._val(xva, yva):.6f}")
    model.load_state_dict(avg.as_float())
    print(f"val of running average {trainer._val(xva, yva):.6f}")
    load_bytes(model, start_blob)
    print(f"val at start {trainer._val(xva, yva):.6f}")


if __name__ == "__main__":
    main()
