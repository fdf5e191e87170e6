import torch
import torch.nn as nn

from .snapshot import distance
from .trainer import Trainer


def main():
    torch.manual_seed(0)
    X = torch.randn(120, 4)
    Y = torch.sin(2 * X[:, :1]) + 0.2 * torch.randn(120, 1)
    model = nn.Sequential(nn.Linear(4, 24), nn.ReLU(), nn.Linear(24, 1))
    tr = Trainer(model, lr=0.4)
    tr.fit(X[:30], Y[:30], X[30:], Y[30:], steps=60)
    live = {k: v.clone() for k, v in model.state_dict().items()}
    print(f"best val {tr.best.score:.5f} dist(best, live) {distance(tr.best.state, live):.5f}")
    for step, st in tr.periodic.history:
        print(f"periodic step {step} dist to live {distance(st, live):.5f}")
    avg = tr.swa.averaged()
    with torch.no_grad():
        w1, b1, w2, b2 = avg
        pred = torch.relu(X[30:] @ w1.t() + b1) @ w2.t() + b2
        print(f"swa val {nn.functional.mse_loss(pred, Y[30:]).item():.5f} over {len(tr.swa.members)} members")
    tr.reset_to_anchor()
    print(f"after reset dist to initial {distance(model.state_dict(), tr.initial):.5f}")


if __name__ == "__main__":
    main()
