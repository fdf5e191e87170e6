import torch

torch.manual_seed(0)


def lag_by_one(x):
    dst = x[:, 1:]
    src = x[:, :-1]
    dst[...] = src  # expect: TEN403
    return x


def lag_by_one_copy(x):
    dst, src = x[..., 1:], x[..., :-1]
    dst.copy_(src)  # expect: TEN403
    return x


def lag_by_one_safe(x):
    dst, src = x[..., 1:], x[..., :-1].clone()
    dst.copy_(src)  # ok
    return x


def head_from_tail(x):
    head, tail = x[:, :2], x[:, -2:]
    head[...] = tail  # ok
    return x


base = torch.arange(12, dtype=torch.float32).view(3, 4)
for fn in (lag_by_one, lag_by_one_copy, lag_by_one_safe, head_from_tail):
    print(f"{fn.__name__:16s}", fn(base.clone()).tolist())
