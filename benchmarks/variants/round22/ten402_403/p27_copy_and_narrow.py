"""In-place shifts written with copy_ / narrow, and their safe counterparts."""
import torch

torch.manual_seed(0)


def advance_time_major(buf, k):
    """buf: (time, features). Drop the first k rows, keep the rest at the front."""
    t = buf.size(0)
    buf.narrow(0, 0, t - k).copy_(buf.narrow(0, k, t - k))  # expect: TEN403
    buf.narrow(0, t - k, k).zero_()
    return buf


def delay_with_slices(buf):
    buf[:, 1:].copy_(buf[:, :-1])  # expect: TEN403
    buf[:, 0] = -1
    return buf


def delay_with_clone(buf):
    buf[:, 1:].copy_(buf[:, :-1].clone())  # ok
    buf[:, 0] = -1
    return buf


def swap_halves_into(buf):
    h = buf.size(1) // 2
    out = torch.empty_like(buf)
    out.narrow(1, 0, h).copy_(buf.narrow(1, h, h))  # ok
    out.narrow(1, h, h).copy_(buf.narrow(1, 0, h))  # ok
    return out


def duplicate_first_half(buf):
    h = buf.size(1) // 2
    buf.narrow(1, h, h).copy_(buf.narrow(1, 0, h))  # ok
    return buf


def delay_with_data(buf):
    buf.data[:, 1:] = buf.data[:, :-1]  # expect: TEN403
    return buf


mk = lambda: torch.arange(1.0, 13.0).view(3, 4)
try:
    print("advance      :", advance_time_major(torch.arange(1.0, 13.0).view(6, 2), 2).tolist())
except RuntimeError as err:
    print("advance failed:", str(err).split(".")[0])
print("delay slices :", delay_with_slices(mk()).tolist())
print("delay clone  :", delay_with_clone(mk()).tolist())
print("swap halves  :", swap_halves_into(mk()).tolist())
print("dup half     :", duplicate_first_half(mk()).tolist())
print("delay .data  :", delay_with_data(torch.nn.Parameter(torch.arange(1.0, 9.0).view(2, 4))).tolist())
