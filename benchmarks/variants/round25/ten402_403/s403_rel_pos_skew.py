"""Relative-position bias matrix built by diagonal propagation (Toeplitz fill)."""
import torch


def toeplitz_inplace(first_row, first_col):
    n = first_row.numel()
    m = torch.zeros(n, n)
    m[0] = first_row  # ok
    m[:, 0] = first_col  # ok
    for _ in range(n - 1):
        m[1:, 1:] = m[:-1, :-1]  # expect: TEN403
    return m


def toeplitz_contig(first_row, first_col):
    n = first_row.numel()
    m = torch.zeros(n, n)
    m[0] = first_row  # ok
    m[:, 0] = first_col  # ok
    for _ in range(n - 1):
        m[1:, 1:] = m[:-1, :-1].contiguous()  # ok
    return m


torch.manual_seed(0)
r = torch.arange(1.0, 7.0)
c = torch.cat([r[:1], -torch.arange(2.0, 7.0)])
a, b = toeplitz_inplace(r, c), toeplitz_contig(r, c)
print("in-place row 3", a[3].tolist())
print("contig   row 3", b[3].tolist())
print("equal", torch.equal(a, b))
