"""Shifting state with narrow() views and copy_()."""
import torch

torch.manual_seed(0)
T, D = 6, 3

state = torch.randn(T, D)
n = T - 1
try:
    state.narrow(0, 1, n).copy_(state.narrow(0, 0, n))  # expect: TEN403
    print("narrow shift:", [round(v, 4) for v in state.flatten().tolist()])
except RuntimeError as e:
    print("narrow shift RuntimeError:", str(e).split(".")[0])

hidden = torch.randn(4, T)
m = T - 1
hidden.narrow(1, 1, m).copy_(hidden.narrow(1, 0, m))  # expect: TEN403
print("narrow col shift:", [round(v, 4) for v in hidden.flatten().tolist()])

swap = torch.randn(T, D)
swap.narrow(0, 0, 2).copy_(swap.narrow(0, 3, 2))  # ok
print("disjoint narrow:", [round(v, 4) for v in swap.flatten().tolist()])

safe = torch.randn(4, T)
safe.narrow(1, 1, m).copy_(safe.narrow(1, 0, m).clone())  # ok
print("cloned narrow:", [round(v, 4) for v in safe.flatten().tolist()])
