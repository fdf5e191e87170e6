import torch

torch.manual_seed(0)

table = torch.arange(1, 13, dtype=torch.float32).view(3, 4)

a = table.clone()
a[:, 1:] = a[:, :1]  # ok
print("broadcast first column:", a.tolist())

b = table.clone()
b[:, :2] = b[:, 2:4]  # ok
print("copy right half to left:", b.tolist())

c = table.clone()
c[:, 1:3] = c[:, 0:2]  # expect: TEN403
print("move two columns right by one:", c.tolist())

d = table.clone()
d.t()[1:3] = d.t()[0:2]  # expect: TEN403
print("same through transpose:", d.tolist())
