"""Shifts written through tuple targets and through names bound to views."""
import torch

torch.manual_seed(0)


def shift_pair(a, b):
    a[:, 1:], b[:, 1:] = a[:, :-1], b[:, :-1].clone()  # expect: TEN403
    return a, b


def shift_pair_fixed(a, b):
    a[:, 1:], b[:, 1:] = a[:, :-1].clone(), b[:, :-1].clone()  # ok
    return a, b


def shift_via_alias(x):
    prev = x[:, :-1]
    x[:, 1:] = prev  # expect: TEN403
    return x


def shift_via_clone(x):
    prev = x[:, :-1].clone()
    x[:, 1:] = prev  # ok
    return x


def shift_via_contiguous(x):
    prev = x[:, :-1].contiguous()
    x[:, 1:] = prev  # ok
    return x


def swap_halves(x):
    h = x.size(1) // 2
    left, right = x[:, :h].clone(), x[:, h:].clone()
    x[:, :h], x[:, h:] = right, left  # ok
    return x


if __name__ == "__main__":
    base = torch.arange(12.).view(3, 4)
    ref = torch.cat([base[:, :1], base[:, :-1]], 1)
    print(torch.equal(shift_pair(base.clone(), base.clone())[0], ref),
          torch.equal(shift_pair_fixed(base.clone(), base.clone())[0], ref))
    print(torch.equal(shift_via_alias(base.clone()), ref), torch.equal(shift_via_clone(base.clone()), ref),
          torch.equal(shift_via_contiguous(base.clone()), ref))
    print(swap_halves(base.clone()))
