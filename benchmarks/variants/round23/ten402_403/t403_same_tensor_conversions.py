"""Conversions that look like copies but may hand back the very same tensor."""
import torch

torch.manual_seed(0)


def attempt(name, fn, x):
    ref = x.clone()
    ref[1:] = x[:-1].clone()
    try:
        fn(x)
        print("%-22s matches clone reference: %s" % (name, torch.equal(x, ref)))
    except RuntimeError as e:
        print("%-22s RuntimeError: %s" % (name, str(e).split(".")[0]))


def via_contiguous(x):
    x[1:] = x[:-1].contiguous()  # expect: TEN403


def via_float(x):
    x[1:] = x[:-1].float()  # expect: TEN403


def via_to_same_dtype(x):
    x[1:] = x[:-1].to(torch.float32)  # expect: TEN403


def via_detach(x):
    x[1:] = x[:-1].detach()  # expect: TEN403


def via_double(x):
    x[1:] = x[:-1].double()  # ok


def via_add_zero(x):
    x[1:] = x[:-1] + 0  # ok


for name, fn in [("contiguous", via_contiguous), ("float", via_float), ("to(float32)", via_to_same_dtype),
                 ("detach", via_detach), ("double", via_double), ("plus zero", via_add_zero)]:
    attempt(name, fn, torch.randn(8))

# columns of a 2-D tensor are not contiguous, so .contiguous() really copies here
m = torch.randn(3, 5)
ref = m.clone()
ref[:, 1:] = m[:, :-1].clone()
m[:, 1:] = m[:, :-1].contiguous()  # ok
print("column contiguous matches:", torch.equal(m, ref))
