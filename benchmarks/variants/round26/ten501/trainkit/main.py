import torch
import torch.nn as nn

from .callbacks import EpochPrinter, LossHistory, OutputStats
from .engine import Engine
from .models import make_mlp


def make_loader(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 6, generator=g)
    y = x[:, :2].sum(1, keepdim=True)
    return [(x[i:i + 10], y[i:i + 10]) for i in range(0, n, 10)]


def main():
    torch.manual_seed(0)
    train, val = make_loader(60, 1), make_loader(30, 2)
    for detach in (False, True):
        torch.manual_seed(0)
        model = make_mlp(6, 16, 1)
        hist, stats = LossHistory(), OutputStats()
        eng = Engine("detached" if detach else "raw", model, torch.optim.SGD(model.parameters(), lr=0.05), nn.MSELoss(),
                     callbacks=[hist, stats, EpochPrinter()], detach_for_callbacks=detach)
        eng.fit(train, val, epochs=2)
        print(eng.name, len(hist.losses), round(float(stats.sum) / stats.n, 4))


if __name__ == "__main__":
    main()
