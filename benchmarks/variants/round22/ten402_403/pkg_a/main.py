"""Run from the set root: python -m pkg_a.main"""
import torch
from torch import nn

from . import registry, snapshots
from .callbacks import BestWeights, EMAEvaluation
from .ema import EMA

torch.manual_seed(0)


def main():
    model = nn.Sequential(nn.Linear(5, 24), nn.ReLU(), nn.Linear(24, 1))
    registry.register("init", model)
    registry.register_copy("init_copy", model)
    safe_init = snapshots.take_state_copy(model)  # ok
    vec0 = snapshots.flat_params(model)  # ok
    ema = EMA(model, decay=0.7)
    best_cb, ema_eval = BestWeights(), EMAEvaluation(ema)
    opt = torch.optim.SGD(model.parameters(), lr=0.3, momentum=0.9)
    x, xv = torch.randn(20, 5), torch.randn(100, 5)
    f = lambda t: (t[:, :1] * t[:, 1:2]).tanh()
    y, yv = f(x) + 0.2 * torch.randn(20, 1), f(xv)
    mse = lambda m: ((m(xv) - yv) ** 2).mean().item()
    for epoch in range(12):
        for _ in range(3):
            opt.zero_grad()
            ((model(x) - y) ** 2).mean().backward()
            opt.step()
            ema.update(model)
        with torch.no_grad():
            raw = mse(model)
        ema_val = ema_eval.evaluate(model, mse)
        with torch.no_grad():
            raw_after = mse(model)
        best_cb.on_epoch_end(epoch, model, raw)
        print(f"epoch {epoch:2d}: raw {raw:.5f} ema {ema_val:.5f} raw-after-eval {raw_after:.5f}")
    print(f"distance from init: registry {registry.distance('init', model):.5f}, "
          f"copy {registry.distance('init_copy', model):.5f}, "
          f"flat {(snapshots.flat_params(model) - vec0).norm().item():.5f}")
    best_cb.on_train_end(model)
    with torch.no_grad():
        print(f"best epoch {best_cb.best_epoch} ({best_cb.best_loss:.5f}); after restore {mse(model):.5f}")
        model.load_state_dict(safe_init)
        print(f"init weights reloaded: {mse(model):.5f}")


if __name__ == "__main__":
    main()
