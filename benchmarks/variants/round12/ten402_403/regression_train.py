import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def make_model(d_in, hidden=128):
    return nn.Sequential(
        nn.Linear(d_in, hidden), nn.GELU(),
        nn.Linear(hidden, hidden), nn.GELU(),
        nn.Linear(hidden, 1),
    )


def weight_distance(sd_a, sd_b):
    total = 0.0
    for name in sd_a:
        total += (sd_a[name].float() - sd_b[name].float()).pow(2).sum().item()
    return math.sqrt(total)


def evaluate(model, xs, ys):
    model.eval()
    with torch.no_grad():
        return F.mse_loss(model(xs).squeeze(-1), ys).item()


def main(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=200)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--out", default="regressor.pt")
    args = p.parse_args(argv)

    torch.manual_seed(0)
    xs = torch.randn(2048, 16)
    ys = xs @ torch.randn(16) + 0.1 * torch.randn(2048)
    xv, yv = xs[1792:], ys[1792:]
    xs, ys = xs[:1792], ys[:1792]

    model = make_model(16)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)

    init_sd = dict(model.state_dict())  # expect: TEN402
    init_ref = {k: v.detach().clone() for k, v in model.state_dict().items()}  # ok
    best_val = float("inf")
    best_weights = None

    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(xs.shape[0])
        for i in range(0, xs.shape[0], 64):
            idx = perm[i:i + 64]
            loss = F.mse_loss(model(xs[idx]).squeeze(-1), ys[idx])
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()

        val = evaluate(model, xv, yv)
        if val < best_val:
            best_val = val
            best_weights = {k: v for k, v in model.state_dict().items()}  # expect: TEN402
        if epoch % 20 == 0:
            drift = weight_distance(model.state_dict(), init_sd)
            drift_ref = weight_distance(model.state_dict(), init_ref)
            print(f"epoch {epoch} val {val:.4f} drift {drift:.3f} / {drift_ref:.3f}")

    model.load_state_dict(best_weights)
    final = model.state_dict()  # ok
    torch.save(final, args.out)
    print("best val", best_val, "restored val", evaluate(model, xv, yv))


if __name__ == "__main__":
    main()
