"""Shifts performed through transposed / permuted views of a (time, feature) matrix."""
import torch

torch.manual_seed(0)


def shift_features_via_t(x):
    """x: (T, F); shift along features by writing rows of x.t()."""
    xt = x.t()
    xt[1:] = xt[:-1]  # expect: TEN403
    xt[0] = 0
    return x


def shift_time_via_permute(x):
    """x: (B, C, T) viewed as (T, B, C)."""
    v = x.permute(2, 0, 1)
    v[1:] = v[:-1]  # expect: TEN403
    v[0] = 0
    return x


def shift_features_other(x, z):
    x.t()[1:] = z.t()[:-1]  # ok
    return x


if __name__ == "__main__":
    a = torch.randn(5, 6)
    b = torch.randn(2, 3, 9)
    print("t", f"{shift_features_via_t(a.clone()).sum().item():.5f}")
    print("permute", f"{shift_time_via_permute(b.clone()).sum().item():.5f}")
    print("other", f"{shift_features_other(a.clone(), a.clone()).sum().item():.5f}")
