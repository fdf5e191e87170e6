"""Stepped-slice updates on interleaved (even/odd) sample buffers."""
import torch

torch.manual_seed(0)


def upsample_hold(x):
    """Sample-and-hold: odd positions copy the even ones (disjoint element sets)."""
    x[1::2] = x[0::2]  # ok
    return x


def swap_phase(y):
    y[:, ::2] = y[:, 1::2]  # ok
    return y


def shift_even(x):
    """Move every even sample forward by one even slot (overlapping stepped views)."""
    x[2::2] = x[:-2:2]  # expect: TEN403
    return x


def shift_every_third(z):
    thirds = z[::3]
    thirds[1:] = thirds[:-1]  # expect: TEN403
    return z


def shift_every_third_cloned(z):
    thirds = z[::3]
    thirds[1:] = thirds[:-1].clone()  # ok
    return z


if __name__ == "__main__":
    base = torch.randn(24)
    grid = torch.randn(4, 10)
    for fn, arg in ((upsample_hold, base), (swap_phase, grid), (shift_even, base),
                    (shift_every_third, base), (shift_every_third_cloned, base)):
        try:
            out = fn(arg.clone())
            print(fn.__name__, f"{out.sum().item():.5f}", [round(v, 4) for v in out.reshape(-1)[:8].tolist()])
        except RuntimeError as e:
            print(fn.__name__, "RuntimeError:", str(e)[:60])
