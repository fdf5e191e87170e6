import torch
import torch.nn as nn

from .callbacks import LossHistory, ProgressPrinter
from .trainer import GANTrainer


def main():
    torch.manual_seed(0)
    G = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 3))
    D = nn.Sequential(nn.Linear(3, 8), nn.LeakyReLU(0.2), nn.Linear(8, 1))
    hist = LossHistory()
    trainer = GANTrainer(G, D, callbacks=[hist, ProgressPrinter()])
    data = [torch.randn(4, 3) + 2.0 for _ in range(3)]
    trainer.fit(data, epochs=2)
    print(len(hist.steps), len(hist.epochs), trainer.sample_grid.shape, len(trainer.sample_cache))


if __name__ == "__main__":
    main()
