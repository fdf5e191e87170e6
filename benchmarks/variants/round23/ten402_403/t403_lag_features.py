"""Lag features for a univariate time series."""
import numpy as np
import torch

torch.manual_seed(0)
series = torch.cumsum(torch.randn(10), 0)
n = series.numel()

# separate output tensor: fine
lag1 = series.clone()
lag1[1:] = series[:-1]  # ok
print("lag1:", [round(v, 3) for v in lag1.tolist()])

# numpy handles overlapping slice assignment by buffering
arr = series.numpy().copy()
arr[1:] = arr[:-1]  # ok
print("numpy lag:", [round(float(v), 3) for v in arr])

# python list slice assignment copies the right-hand side first
lst = series.tolist()
lst[1:] = lst[:-1]  # ok
print("list lag:", [round(v, 3) for v in lst])

# in place on the torch tensor itself
work = series.clone()
try:
    work[1:n] = work[0:n - 1]  # expect: TEN403
    print("in-place lag:", [round(v, 3) for v in work.tolist()])
except RuntimeError as e:
    print("in-place lag RuntimeError:", str(e).split(".")[0])
