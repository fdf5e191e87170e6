import torch
import torch.nn.functional as F

torch.manual_seed(0)

K = 3
weight = torch.randn(2, 2, K)


def causal_conv_reference(x):
    padded = x.new_zeros(x.shape[0], x.shape[1], x.shape[2] + K - 1)
    padded[:, :, K - 1:] = x  # ok
    return F.conv1d(padded, weight)


def causal_conv_preallocated(x):
    # buffer has K-1 spare columns at the end; move the signal right, zero the front
    buf = torch.cat([x, x.new_zeros(x.shape[0], x.shape[1], K - 1)], dim=2)
    buf[:, :, K - 1:] = buf[:, :, :-(K - 1)]  # expect: TEN403
    buf[:, :, :K - 1] = x.new_zeros(x.shape[0], x.shape[1], K - 1)  # ok
    return F.conv1d(buf, weight)


x = torch.randn(2, 2, 7)
a, b = causal_conv_reference(x), causal_conv_preallocated(x)
print("reference", [round(v, 4) for v in a[0, 0].tolist()])
print("prealloc ", [round(v, 4) for v in b[0, 0].tolist()])
print("max diff %.5f" % (a - b).abs().max().item())
