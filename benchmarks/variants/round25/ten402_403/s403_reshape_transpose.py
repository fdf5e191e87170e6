"""Shifting through reshaped / transposed views of the same storage."""
import torch

torch.manual_seed(0)
B, T, C = 2, 6, 3
x = torch.randn(B, T, C)
ref = torch.zeros_like(x)
ref[:, 1:] = x[:, :-1]  # ok

# 1) flatten time and channels, shift by one time step (= C elements)
a = x.clone()
flat = a.view(B, -1)
flat[:, C:] = flat[:, :-C]  # expect: TEN403
flat[:, :C] = 0  # ok
print("view shift error", round((a - ref).abs().max().item(), 6))

# 2) channels-first view of the same buffer, shift along time
b = x.clone()
bt = b.transpose(1, 2)
bt[:, :, 1:] = bt[:, :, :-1]  # expect: TEN403
bt[:, :, 0] = 0  # ok
print("transpose shift error", round((b - ref).abs().max().item(), 6))

# 3) reshape of a non-contiguous tensor returns a copy: writing into it is unrelated storage
c = x.clone()
ct = c.transpose(1, 2).reshape(B, C * T)
ct[:, 1:] = c.transpose(1, 2).reshape(B, C * T)[:, :-1]  # ok
print("copy checksum", round(ct.sum().item(), 5), "original untouched", torch.equal(c, x))
