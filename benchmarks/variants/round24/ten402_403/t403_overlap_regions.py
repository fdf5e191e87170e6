"""Block copies inside one buffer: some regions overlap, some are disjoint."""
import torch

torch.manual_seed(0)


def mirror_halves(x, n):
    x[:, n:] = x[:, :n]  # ok
    return x


def duplicate_head(x, n):
    x[:n] = x[n:2 * n]  # ok
    return x


def smear_window(x, n):
    x[:, n - 1:2 * n - 1] = x[:, :n]  # expect: TEN403
    return x


def pull_forward(x):
    x[:, 2:6] = x[:, 4:8]  # expect: TEN403
    return x


def pull_forward_cloned(x):
    x[:, 2:6] = x[:, 4:8].clone()  # ok
    return x


def tile_pattern(x, p):
    for i in range(1, x.shape[-1] // p):
        x[..., i * p:(i + 1) * p] = x[..., :p]  # ok
    return x


if __name__ == "__main__":
    base = torch.randn(3, 8)
    for name, fn in (("mirror", lambda t: mirror_halves(t, 4)), ("dup_head", lambda t: duplicate_head(t, 1)),
                     ("smear", lambda t: smear_window(t, 4)), ("pull", pull_forward),
                     ("pull_cloned", pull_forward_cloned), ("tile", lambda t: tile_pattern(t, 2))):
        out = fn(base.clone())
        print(name, f"{out.sum().item():.5f}", [round(v, 4) for v in out[0].tolist()])
