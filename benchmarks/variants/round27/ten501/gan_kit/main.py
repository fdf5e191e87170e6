"""python -m gan_kit.main"""
import torch

torch.manual_seed(0)

from .history import LossHistory, SafeLossHistory
from .nets import discriminator, generator
from .train import train


def main():
    nz = 4
    G, D = generator(nz), discriminator()
    hist, safe = LossHistory(), SafeLossHistory()
    bank = []
    d_run = train(G, D, 8, nz, hist, safe, bank)
    print("hist", hist.summary(), "safe", safe.summary())
    print("d running", round(d_run.item(), 4), "bank", tuple(torch.cat(bank).shape))
    with torch.no_grad():
        print("sample mean", [round(v, 3) for v in G(torch.randn(256, nz)).mean(0).tolist()])


if __name__ == "__main__":
    main()
