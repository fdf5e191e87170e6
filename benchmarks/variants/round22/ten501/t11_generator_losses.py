"""Training written as generators that yield per-step results."""
import torch
from torch import nn


def batches(x, y, bs):
    for i in range(0, len(x), bs):
        yield x[i:i + bs], y[i:i + bs]


def train_steps(model, opt, x, y, bs=8):
    for xb, yb in batches(x, y, bs):
        loss = nn.functional.mse_loss(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        yield loss


def train_terms(model, opt, x, y, bs=8):
    for step, (xb, yb) in enumerate(batches(x, y, bs)):
        pred = model(xb)
        mse = nn.functional.mse_loss(pred, yb)
        l1 = 0.01 * sum(p.abs().sum() for p in model.parameters())
        opt.zero_grad()
        (mse + l1).backward()
        opt.step()
        yield step, {"mse": mse, "l1": l1}


@torch.no_grad()
def predict_batches(model, x, bs=8):
    for xb, _ in batches(x, x, bs):
        yield model(xb)


def main():
    torch.manual_seed(0)
    x = torch.randn(48, 3)
    y = x[:, :1] * 2 - x[:, 1:2]
    model = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)

    curve, curve_f = [], []
    for loss in train_steps(model, opt, x, y):
        curve.append(loss)  # expect: TEN501
        curve_f.append(loss.item())  # ok

    totals = {}
    totals_f = {}
    for step, terms in train_terms(model, opt, x, y):
        totals = {k: totals.get(k, 0) + v for k, v in terms.items()}  # expect: TEN501
        totals_f = {k: totals_f.get(k, 0.0) + v.item() for k, v in terms.items()}  # ok

    running = torch.zeros(())
    for loss in train_steps(model, opt, x, y):
        running = running + loss.detach()  # ok

    outs = []
    for o in predict_batches(model, x):
        outs.append(o)  # ok

    print(len(curve), {k: round(v, 3) for k, v in totals_f.items()}, float(running), torch.cat(outs).shape)
    print(float(totals["mse"].detach()))


if __name__ == "__main__":
    main()
