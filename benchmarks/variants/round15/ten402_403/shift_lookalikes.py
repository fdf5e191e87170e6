"""Slice writes that look like shifts but never read and write overlapping memory."""
import torch

torch.manual_seed(0)


def shift_by(x, k):
    """Shift right by k; k == 0 only in the configuration used below."""
    x[:, k:] = x[:, :x.size(1) - k]  # ok
    return x


def interleave_pairs(x):
    x[:, ::2] = x[:, 1::2]  # ok
    return x


def broadcast_first_column(x):
    x[:, 1:] = x[:, :1]  # ok
    return x


def move_second_half(x):
    h = x.shape[1] // 2
    x[:, :h] = x[:, h:]  # ok
    return x


def shift_clone(x):
    x[:, 1:] = x[:, :-1].clone()  # ok
    x[:, 1:].copy_(x[:, :-1].detach().clone())  # ok
    return x


def reverse_time(x):
    x.copy_(x.flip(1))  # ok
    return x


def shift_into_other(x, out):
    out[:, 1:] = x[:, :-1]  # ok
    out[:, :1] = 0  # ok
    return out


def rolled(x):
    return torch.roll(x, shifts=1, dims=1)  # ok


if __name__ == "__main__":
    cfg = {"shift": 0}
    base = torch.arange(16.).view(2, 8)
    print(shift_by(base.clone(), cfg["shift"])[0].tolist())
    print(interleave_pairs(base.clone())[0].tolist())
    print(broadcast_first_column(base.clone())[0].tolist())
    print(move_second_half(base.clone())[0].tolist())
    print(shift_clone(base.clone())[0].tolist())
    print(reverse_time(base.clone())[0].tolist())
    print(shift_into_other(base, torch.empty_like(base))[0].tolist(), rolled(base)[0].tolist())
