"""Boundary handling and layout tricks that copy between non-overlapping slices."""
import torch


def periodic_ghost_cells_(u, g=1):
    """u has g ghost cells on each side of the interior along the last dim."""
    u[..., :g] = u[..., -2 * g:-g]  # ok
    u[..., -g:] = u[..., g:2 * g]  # ok
    return u


def reflect_pad_edges_(img, p=2):
    """Fill a p-wide border of (C, H, W) by mirroring the interior rows/cols."""
    img[:, :p, :] = img[:, p:2 * p, :].flip(1)  # ok
    img[:, :, :p] = img[:, :, p:2 * p].flip(-1)  # ok
    return img


def wrap_tail_to_head_(x, k):
    """Copy the last k columns over the first k; requires 2k <= width."""
    assert 2 * k <= x.shape[1]
    x[:, :k] = x[:, -k:]  # ok
    return x


def swap_halves_(x):
    half = x.shape[0] // 2
    tmp = x[:half].clone()  # ok
    x[:half] = x[half:2 * half]  # ok
    x[half:2 * half] = tmp
    return x


def interleave_pairs_(x):
    """Put each odd element into the even slot before it (pairwise hold)."""
    x[0::2] = x[1::2]  # ok
    return x


def clamp_tail_(x, lo=-1.0, hi=1.0):
    x[:, 1:] = x[:, 1:].clamp(lo, hi)  # ok
    return x


def scale_rows_(x, scale):
    x[1:] = x[1:] * scale  # ok
    return x


def mirror_last_row_(x):
    x[-1] = x[0]  # ok
    return x


if __name__ == "__main__":
    u = torch.arange(8.0)
    print("ghost", periodic_ghost_cells_(u.clone()).tolist())
    print("wrap", wrap_tail_to_head_(torch.arange(12.0).view(2, 6), 3).tolist())
    print("swap", swap_halves_(torch.arange(6.0)).tolist())
    print("pairs", interleave_pairs_(torch.arange(6.0)).tolist())
    print("clamp", clamp_tail_(torch.linspace(-2, 2, 6).view(1, -1)).tolist())
    print("scale", scale_rows_(torch.ones(3, 2), 0.5).tolist())
    img = torch.arange(3 * 6 * 6, dtype=torch.float32).view(3, 6, 6)
    print("reflect", reflect_pad_edges_(img.clone())[0, :3, 0].tolist())
