"""Running totals computed with slice arithmetic."""
import torch

torch.manual_seed(0)
x = torch.randint(0, 5, (8,)).float()
ref = torch.cumsum(x, 0)  # ok

# Hillis-Steele style scan written in place
y = x.clone()
try:
    step = 1
    while step < y.numel():
        y[step:] += y[:-step]  # either: TEN403
        step *= 2
    print("in-place scan:", y.tolist())
except RuntimeError as e:
    print("in-place scan RuntimeError:", str(e).split(".")[0])

# the same scan with a clone of the source at each step
z = x.clone()
step = 1
while step < z.numel():
    z[step:] = z[step:] + z[:-step].clone()  # ok
    step *= 2
print("cloned scan:", z.tolist(), "matches cumsum:", torch.equal(z, ref))
