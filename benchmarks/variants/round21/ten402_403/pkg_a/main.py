"""python -m pkg_a.main : train twice from the same initialisation, restoring best weights."""
import torch
import torch.nn as nn

from .ckpt import safe_snapshot
from .trainer import Trainer

torch.manual_seed(0)
torch.set_num_threads(1)


def data():
    g = torch.Generator().manual_seed(42)
    w = torch.randn(8, 1, generator=g)
    xt = torch.randn(24, 8, generator=g)
    xv = torch.randn(200, 8, generator=g)
    return (xt, xt @ w + torch.randn(24, 1, generator=g)), (xv, xv @ w)


def main():
    train, val = data()
    model = nn.Sequential(nn.Linear(8, 64), nn.Tanh(), nn.Linear(64, 1))
    init_state = model.state_dict()  # expect: TEN402
    init_copy = safe_snapshot(model)  # ok
    for safe in (False, True):
        model.load_state_dict(init_state)  # start both runs from the same initialisation
        drift = sum((model.state_dict()[k] - init_copy[k]).norm().item() for k in init_copy)
        stop, last, restored = Trainer(model, safe=safe).fit(train, val)
        print(f"safe={safe}: |start - init|={drift:.4f} stopped@{stop} last_val={last:.4f} "
              f"val_after_restore={restored:.4f}")


if __name__ == "__main__":
    main()
