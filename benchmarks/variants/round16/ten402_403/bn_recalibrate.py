"""Test-time BatchNorm re-calibration on a shifted domain, then put the source stats back."""
import io

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


def make_model():
    return nn.Sequential(nn.Linear(8, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Linear(32, 2))


def domain(n, shift):
    x = torch.randn(n, 8)
    y = (x[:, 0] - x[:, 1] > 0).long()
    return x * 1.5 + shift, y


def accuracy(model, x, y):
    model.eval()
    with torch.no_grad():
        return (model(x).argmax(1) == y).float().mean().item()


def with_target_stats(model, x_target, y_target):
    saved = {name: buf for name, buf in model.named_buffers()}  # expect: TEN402
    model.train()
    with torch.no_grad():
        for chunk in x_target.split(50):
            model(chunk)
    acc = accuracy(model, x_target, y_target)
    with torch.no_grad():
        for name, buf in model.named_buffers():
            buf.copy_(saved[name])
    return acc


def with_target_stats_fixed(model, x_target, y_target):
    saved = {name: buf.clone() for name, buf in model.named_buffers()}  # ok
    model.train()
    with torch.no_grad():
        for chunk in x_target.split(50):
            model(chunk)
    acc = accuracy(model, x_target, y_target)
    with torch.no_grad():
        for name, buf in model.named_buffers():
            buf.copy_(saved[name])
    return acc


def main():
    xs, ys = domain(500, 0.0)
    xt, yt = domain(300, 2.0)
    model = make_model()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    model.train()
    for _ in range(60):
        idx = torch.randint(0, 500, (64,))
        opt.zero_grad()
        nn.functional.cross_entropy(model(xs[idx]), ys[idx]).backward()
        opt.step()
    stats_blob = io.BytesIO()
    torch.save(dict(model.named_buffers()), stats_blob)  # ok
    print("source acc %.3f, target acc %.3f" % (accuracy(model, xs, ys), accuracy(model, xt, yt)))
    for fn in (with_target_stats_fixed, with_target_stats):
        t_acc = fn(model, xt, yt)
        print(f"{fn.__name__:24s} target acc {t_acc:.3f}, source acc afterwards {accuracy(model, xs, ys):.3f}")


if __name__ == "__main__":
    main()
