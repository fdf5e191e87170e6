"""Positional 'age' features refreshed in place; several right-looking variants."""
import torch

torch.manual_seed(0)
pos = torch.randn(2, 10)
base = pos.clone()

a = base.clone()
a[:, 1:] = a[:, :-1].detach()  # expect: TEN403

b = base.clone()
b[:, 1:] = b[:, :-1] * 1.0  # ok

c = base.clone()
c.copy_(torch.roll(c, 1, dims=1))  # ok

d = base.clone()
d[:, :] = d  # either: TEN403

e = base.clone()
e[:, 1:] = e[:, :-1].flip(1).flip(1)  # ok

f = base.clone()
f[:, 1:], f[:, 0] = f[:, :-1], 0.0  # expect: TEN403

for name, t in zip("abcdef", (a, b, c, d, e, f)):
    print(name, [round(v, 4) for v in t[0, :6].tolist()])
