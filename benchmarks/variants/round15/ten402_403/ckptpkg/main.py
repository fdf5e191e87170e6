import torch
import torch.nn as nn

from .callbacks import SnapshotOnPlateau
from .trainer import Trainer


def main():
    torch.manual_seed(0)
    x, y = torch.randn(96, 7), torch.randn(96, 1)
    model = nn.Sequential(nn.Linear(7, 16), nn.Tanh(), nn.Linear(16, 1))
    cb = SnapshotOnPlateau(patience=3)
    trainer = Trainer(model, cb)
    best = trainer.fit(x, y)
    print("drift measured against live init:", trainer.drift_from_init())
    model.load_state_dict(best)
    trainer.reset_from_blob()
    trainer.fit(x, y, epochs=2)
    print("callback snapshot is live:", cb.snapshot["0.weight"].data_ptr() == model[0].weight.data_ptr())


if __name__ == "__main__":
    main()
