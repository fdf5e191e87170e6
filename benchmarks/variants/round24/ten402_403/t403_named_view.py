"""Source view bound to a name before the in-place write (lagged-feature builder)."""
import torch

torch.manual_seed(0)


def lag_inplace(x):
    prev = x[:, :-1]
    x[:, 1:] = prev  # expect: TEN403
    x[:, 0] = 0
    return x


def lag_inplace_cloned(x):
    prev = x[:, :-1].clone()
    x[:, 1:] = prev  # ok
    x[:, 0] = 0
    return x


def lag_view_alias(x):
    grid = x.view(x.shape[0], 2, -1)
    src = x.view(x.shape[0], 2, -1)[..., :-2]
    grid[..., 2:] = src  # expect: TEN403
    return x


def lag_other_tensor(x):
    out = torch.zeros_like(x)
    prev = x[:, :-1]
    out[:, 1:] = prev  # ok
    return out


if __name__ == "__main__":
    base = torch.randn(3, 12)
    for fn in (lag_inplace, lag_inplace_cloned, lag_view_alias, lag_other_tensor):
        y = fn(base.clone())
        print(fn.__name__, f"{y.sum().item():.5f}", [round(v, 4) for v in y[0, :6].tolist()])
