import torch

torch.manual_seed(0)


def shift_right_(t, k, dim):
    n = t.shape[dim]
    t.narrow(dim, k, n - k).copy_(t.narrow(dim, 0, n - k))  # expect: TEN403
    t.narrow(dim, 0, k).zero_()
    return t


def shift_right_safe_(t, k, dim):
    n = t.shape[dim]
    t.narrow(dim, k, n - k).copy_(t.narrow(dim, 0, n - k).clone())  # ok
    t.narrow(dim, 0, k).zero_()
    return t


def shift_via_new(t, k, dim):
    out = torch.zeros_like(t)
    n = t.shape[dim]
    out.narrow(dim, k, n - k).copy_(t.narrow(dim, 0, n - k))  # ok
    return out


x = torch.arange(24, dtype=torch.float32).view(2, 3, 4)
for dim, k in ((1, 1), (2, 1), (2, 2)):
    a = shift_right_(x.clone(), k, dim)
    b = shift_right_safe_(x.clone(), k, dim)
    c = shift_via_new(x, k, dim)
    print(f"dim={dim} k={k} inplace-vs-safe diff {(a - b).abs().sum().item():.1f} safe-vs-new diff {(b - c).abs().sum().item():.1f}")
