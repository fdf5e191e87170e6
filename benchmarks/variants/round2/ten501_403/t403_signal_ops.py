"""Signal-processing style in-place updates on torch tensors."""
import numpy as np
import torch


def cumulative_inplace(x: torch.Tensor):
    """Meant as pairwise sums, computes running sums."""
    x[:, 1:].add_(x[:, :-1])  # expect: TEN403
    return x


def leaky_integrate(x: torch.Tensor, decay: float):
    x[:, 1:].add_(x[:, :-1], alpha=decay)  # expect: TEN403
    return x


def delay_line(sig: torch.Tensor, d: int):
    sig[:, None, d:] = sig[:, None, :-d]  # expect: TEN403
    return sig


def decimate_shift(frames: torch.Tensor):
    """Stepped slices that still overlap: 2,4,6.. <- 0,2,4.."""
    frames[:, 2::2] = frames[:, :-2:2]  # expect: TEN403
    return frames


def tail_window(x: torch.Tensor):
    x[:, -4:] = x[:, -5:-1]  # expect: TEN403
    return x


def first_channel_lag(spec: torch.Tensor):
    spec[..., 0, 1:] = spec[..., 0, :-1]  # expect: TEN403
    return spec


def lag_from_detached(x: torch.Tensor):
    x[:, 1:] = x.detach()[:, :-1]  # expect: TEN403
    return x


def lag_rows_contiguous(x: torch.Tensor):
    x[1:] = x[:-1].contiguous()  # expect: TEN403
    return x


def lag_rows_view(x: torch.Tensor):
    x[:, 1:] = x[:, :-1].view_as(x[:, 1:])  # expect: TEN403
    return x


# ---- negatives -------------------------------------------------------------

def interleave_swap(x: torch.Tensor):
    x[..., 1::2] = x[..., ::2]  # ok
    return x


def reverse_tail(x: torch.Tensor):
    x[:, 1:] = x[:, :-1].flip(-1)  # ok
    return x


def preemphasis(x: torch.Tensor, coef=0.97):
    x[..., 1:] = x[..., 1:] - coef * x[..., :-1]  # ok
    return x


def rotate_half_inplace(x: torch.Tensor):
    half = x.shape[-1] // 2
    x1, x2 = x[..., :half].clone(), x[..., half:].clone()
    x[..., :half] = -x2  # ok
    x[..., half:] = x1  # ok
    return x


def numpy_shift(a: np.ndarray):
    a[:, 1:] = a[:, :-1]  # ok
    return torch.from_numpy(a)


def recurrence(x: torch.Tensor, a=0.5):
    for t in range(1, x.shape[1]):
        x[:, t] = a * x[:, t - 1] + x[:, t]  # ok
    return x


def other_tensor(x: torch.Tensor, y: torch.Tensor):
    x[:, 1:] = y[:, :-1]  # ok
    return x


if __name__ == "__main__":
    torch.manual_seed(0)

    def check(name, fn, make, ref_fn):
        x = make()
        ref = ref_fn(x.clone())
        try:
            got = fn(x.clone())
            print(f"{name}: wrong={(got != ref).sum().item()}")
        except RuntimeError as e:
            print(f"{name}: raised {str(e)[:40]}")

    mk = lambda: torch.randn(3, 40)
    def ref_add(x):
        x[:, 1:].add_(x[:, :-1].clone()); return x
    check("cumulative_inplace", cumulative_inplace, mk, ref_add)
    def ref_leaky(x):
        x[:, 1:].add_(x[:, :-1].clone(), alpha=0.5); return x
    check("leaky_integrate", lambda x: leaky_integrate(x, 0.5), mk, ref_leaky)
    def ref_delay(x):
        x[:, None, 3:] = x[:, None, :-3].clone(); return x
    check("delay_line", lambda x: delay_line(x, 3), mk, ref_delay)
    def ref_dec(x):
        x[:, 2::2] = x[:, :-2:2].clone(); return x
    check("decimate_shift", decimate_shift, mk, ref_dec)
    def ref_tail(x):
        x[:, -4:] = x[:, -5:-1].clone(); return x
    check("tail_window", tail_window, mk, ref_tail)
    def ref_fc(x):
        x[..., 0, 1:] = x[..., 0, :-1].clone(); return x
    check("first_channel_lag", first_channel_lag, lambda: torch.randn(2, 3, 40), ref_fc)
    def ref_lag(x):
        x[:, 1:] = x[:, :-1].clone(); return x
    check("lag_from_detached", lag_from_detached, mk, ref_lag)
    def ref_rows(x):
        x[1:] = x[:-1].clone(); return x
    check("lag_rows_contiguous", lag_rows_contiguous, mk, ref_rows)
    check("lag_rows_view", lag_rows_view, mk, ref_lag)
    def ref_inter(x):
        x[..., 1::2] = x[..., ::2].clone(); return x
    check("interleave_swap(neg)", interleave_swap, mk, ref_inter)
    def ref_rev(x):
        x[:, 1:] = x[:, :-1].clone().flip(-1); return x
    check("reverse_tail(neg)", reverse_tail, mk, ref_rev)
    print(numpy_shift(np.arange(10.0).reshape(2, 5)))
