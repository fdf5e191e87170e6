import torch
import torch.nn as nn

from .data import make_split
from .engine import evaluate, evaluate_with_grad, train_one_epoch


def main():
    torch.manual_seed(0)
    train, val = make_split(96, 0), make_split(48, 1)
    for scalar in (False, True):
        torch.manual_seed(0)
        model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 3))
        opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        last_losses = []
        last_losses_f = []
        best_val = float("inf")
        for epoch in range(4):
            tr, last = train_one_epoch(model, opt, train, scalar)
            last_losses.append(last)  # expect: TEN501
            last_losses_f.append(last.item())  # ok
            va = evaluate(model, val).result()
            best_val = min(best_val, va["val_loss"])  # ok
            print(f"scalar={scalar} epoch {epoch} train {tr.result()} val {va}")
        sens = evaluate_with_grad(model, val).result()
        print("best", round(best_val, 4), "sens", sens, [round(v, 4) for v in last_losses_f], len(last_losses))


if __name__ == "__main__":
    main()
