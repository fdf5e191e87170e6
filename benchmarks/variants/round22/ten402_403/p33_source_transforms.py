"""Which transformations of the source slice actually produce a fresh tensor?"""
import torch

torch.manual_seed(0)


def show(tag, fn, make):
    x = make()
    try:
        fn(x)
        print(f"{tag:<22}", x.tolist())
    except RuntimeError as err:
        print(f"{tag:<22} failed:", str(err).split(".")[0])


def time_major():
    return torch.arange(1.0, 11.0).view(5, 2)


def batch_major():
    return torch.arange(1.0, 11.0).view(2, 5)


def scaled(x):
    x[:, 1:] = x[:, :-1] * 0.5  # ok


def plus_zero(x):
    x[1:] = x[:-1] + 0  # ok


def contiguous_noncontig(x):
    x[:, 1:] = x[:, :-1].contiguous()  # ok


def contiguous_contig(x):
    x[1:] = x[:-1].contiguous()  # expect: TEN403


def detached(x):
    x[1:] = x[:-1].detach()  # expect: TEN403


def same_dtype(x):
    x[:, 1:] = x[:, :-1].float()  # expect: TEN403


def other_dtype(x):
    x[:, 1:] = x[:, :-1].double()  # ok


def rolled(x):
    x.copy_(torch.roll(x, shifts=1, dims=1))  # ok


def concatenated(x):
    x.copy_(torch.cat([x[:, :1], x[:, :-1]], dim=1))  # ok


def disjoint_rows(x):
    x[3:] = x[:2]  # ok


def flipped(x):
    x[:, 1:] = x[:, :-1].flip(1)  # ok


def from_other(x):
    y = torch.zeros_like(x)
    x[:, 1:] = y[:, :-1]  # ok


show("scaled", scaled, batch_major)
show("plus zero", plus_zero, time_major)
show("contiguous (copy)", contiguous_noncontig, batch_major)
show("contiguous (no copy)", contiguous_contig, time_major)
show("detach", detached, time_major)
show(".float() on float", same_dtype, batch_major)
show(".double()", other_dtype, batch_major)
show("roll", rolled, batch_major)
show("cat", concatenated, batch_major)
show("disjoint rows", disjoint_rows, time_major)
show("flip", flipped, batch_major)
show("other tensor", from_other, batch_major)
