"""Run: python -m pkg_ckpt.main"""
import torch
import torch.nn as nn

from . import snapshots
from .trainer import Trainer

torch.manual_seed(0)
torch.set_num_threads(1)


def run(use_copy):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 24), nn.ReLU(), nn.Linear(24, 1))
    if use_copy:
        init = snapshots.capture_copy(model)  # ok
    else:
        init = snapshots.capture(model)  # expect: TEN402
    trainer = Trainer(model, lr=0.05, use_copy=use_copy)
    x = torch.randn(16, 3)
    y = x[:, :1] + 0.5 * torch.randn(16, 1)
    xv = torch.randn(200, 3)
    yv = xv[:, :1]
    for _ in range(60):
        trainer.epoch(x, y, xv, yv)
    moved = sum((init[k] - v).abs().sum().item() for k, v in model.state_dict().items())
    last = trainer.epoch(x, y, xv, yv)
    model.load_state_dict(trainer.best)
    with torch.no_grad():
        restored = nn.functional.mse_loss(model(xv), yv).item()
    trainer.set_rollback_point()
    before = model[0].weight.detach().clone()  # ok
    for _ in range(5):
        trainer.epoch(x * 10, y, xv, yv)
    trainer.rollback()
    back = torch.equal(model[0].weight, before)
    print(f"use_copy={use_copy} moved_from_init={moved:.3f} best={trainer.best_score:.4f} "
          f"last={last:.4f} restored={restored:.4f} rollback_exact={back}")


run(False)
run(True)
