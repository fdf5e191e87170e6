"""Shifts along the first dimension (torch raises) and stepped slices."""
import torch


def shift_returns(rewards: torch.Tensor):
    """1-d reward buffer: move everything one slot later."""
    rewards[1:] = rewards[:-1]  # expect: TEN403
    rewards[0] = 0.0
    return rewards


def shift_rows(mem: torch.Tensor, n: int):
    mem[n:] = mem[:-n]  # expect: TEN403
    mem[:n] = 0
    return mem


def copy_shift(h: torch.Tensor):
    h[1:].copy_(h[:-1])  # expect: TEN403
    return h


def copy_shift_left(q: torch.Tensor):
    q[:-1].copy_(q[1:])  # expect: TEN403
    return q


def interleaved_shift(f: torch.Tensor, s: int):
    """Shift only the odd rows by s columns (a jitter augmentation)."""
    f[1::2, :-s] = f[1::2, s:]  # expect: TEN403
    f[0::2, s:] = f[0::2, :-s]  # expect: TEN403
    return f


def row_shift(x: torch.Tensor):
    for i in range(x.shape[0]):
        x[i, 1:] = x[i, :-1]  # expect: TEN403
    return x


def masked_rows(x: torch.Tensor, mask: torch.Tensor):
    x[mask, 1:] = x[mask, :-1]  # ok: TEN403
    return x


def disjoint_halves(x: torch.Tensor, k: int):
    x[:, :k] = x[:, k:2 * k]  # ok: TEN403
    return x


def disjoint_literal(x: torch.Tensor):
    x[:, 3:] = x[:, :3]  # ok: TEN403
    return x


def compare_dependent(x: torch.Tensor, i: int, j: int):
    x[:, i:i + 2] = x[:, j:j + 2]  # ok: TEN403
    return x


def negative_shift_branch(x: torch.Tensor, k: int):
    if k < 0:
        x[:, :k] = x[:, -k:]  # ok: TEN403
    return x


if __name__ == "__main__":
    for fn, arg in [(shift_returns, torch.arange(5.0)), (shift_rows, torch.arange(12.0).reshape(4, 3)),
                    (copy_shift, torch.arange(12.0).reshape(4, 3)), (copy_shift_left, torch.arange(5.0))]:
        try:
            fn(arg) if fn is not shift_rows else fn(arg, 1)
            print(fn.__name__, "ok")
        except RuntimeError as e:
            print(fn.__name__, "raised:", str(e)[:40])
    f = torch.arange(40.0).reshape(4, 10)
    g = f.clone()
    g[0::2, 2:] = g[0::2, :-2].clone()
    print("even rows right shift wrong:", not torch.equal(interleaved_shift(f.clone(), 2)[0], g[0]))
    try:
        row_shift(torch.arange(10.0).reshape(2, 5))
    except RuntimeError as e:
        print("row_shift raised:", str(e)[:40])
    print(masked_rows(torch.arange(10.0).reshape(2, 5), torch.tensor([True, False])))
    disjoint_halves(torch.zeros(2, 6), 3), disjoint_literal(torch.zeros(2, 6))
    compare_dependent(torch.zeros(2, 6), 0, 3), negative_shift_branch(torch.zeros(2, 6), -1)
