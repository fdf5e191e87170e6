import torch

torch.manual_seed(0)


def shift_right_(t, k, dim=-1, fill=0.0):
    """In-place shift along `dim` by k, new slots filled with `fill`."""
    n = t.shape[dim]
    t.narrow(dim, k, n - k).copy_(t.narrow(dim, 0, n - k))  # expect: TEN403
    t.narrow(dim, 0, k).fill_(fill)  # ok
    return t


def shift_left_(t, k, dim=-1, fill=0.0):
    n = t.shape[dim]
    src = t.narrow(dim, k, n - k).clone()
    t.narrow(dim, 0, n - k).copy_(src)  # ok
    t.narrow(dim, n - k, k).fill_(fill)  # ok
    return t


def shift_right(t, k, dim=-1, fill=0.0):
    pad_shape = list(t.shape)
    pad_shape[dim] = k
    return torch.cat([t.new_full(pad_shape, fill), t.narrow(dim, 0, t.shape[dim] - k)], dim=dim)  # ok


class Delay:
    def __init__(self, k):
        self.k = k

    def __call__(self, x):
        return shift_right_(x.clone(), self.k, dim=1)


x = torch.randn(3, 10, 2)
print("shift_right_ ", [round(v, 4) for v in shift_right_(x.clone(), 3, dim=1)[0, :, 0].tolist()])
print("shift_left_  ", [round(v, 4) for v in shift_left_(x.clone(), 1, dim=1)[0, :, 0].tolist()])
print("delay(2)     ", [round(v, 4) for v in Delay(2)(x)[0, :, 0].tolist()])
print("shift_right  ", [round(v, 4) for v in shift_right(x, 2, dim=1)[0, :, 0].tolist()])
