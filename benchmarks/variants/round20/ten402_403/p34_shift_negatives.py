"""Slice writes that look like in-place shifts but are safe."""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)

checks = {}

# different source and destination tensors
a = torch.randn(4, 10)
b = torch.randn(4, 10)
b_before = b.clone()
a[:, 1:] = b[:, :-1]  # ok
a[1:] = b[:-1]  # ok
checks["other tensor"] = torch.equal(a[1:, 1:], b_before[:-1, 1:])

# shift by zero: source and destination are the same region
k = 0
c = torch.randn(4, 10)
c0 = c.clone()
c[:, k:] = c[:, :c.shape[1] - k]  # ok
c[k:] = c[:c.shape[0] - k]  # ok
checks["shift by zero"] = torch.equal(c, c0)

# non-overlapping blocks of the same tensor
d = torch.randn(3, 12)
d0 = d.clone()
kk = 4
d[:, :kk] = d[:, kk:2 * kk]  # ok
d[:, 2 * kk:3 * kk] = d[:, kk:2 * kk]  # ok
checks["disjoint blocks"] = torch.equal(d[:, :kk], d0[:, kk:2 * kk]) and torch.equal(d[:, 8:], d0[:, 4:8])

# roll and cat build new tensors
e = torch.randn(5, 6)
rolled = torch.roll(e, 1, dims=1)  # ok
shifted = torch.cat([e[:, :1], e[:, :-1]], dim=1)  # ok
checks["roll/cat"] = torch.equal(rolled[:, 1:], shifted[:, 1:])

# writing into a fresh tensor
f = torch.randn(2, 3, 7)
g = torch.empty_like(f)
g[..., 1:] = f[..., :-1]  # ok
g[..., :1] = f[..., :1]
shifted_f = torch.cat([f[..., :1], f[..., :-1]], -1)
checks["fresh tensor"] = torch.equal(g, shifted_f)

# cloned source
h = torch.randn(4, 9)
want = torch.cat([h[:, :2], h[:, :-2]], dim=1)
h[:, 2:] = h[:, :-2].clone()  # ok
checks["clone source"] = torch.equal(h, want)

# source detached from storage via contiguous() of a transposed view
t = torch.randn(6, 6)
want = t.t().contiguous()
t.copy_(t.t().contiguous())  # ok
checks["contiguous transpose"] = torch.equal(t, want)

# a shifted copy of a buffer that is then reassigned
buf = torch.randn(3, 8)
expect_buf = torch.cat([torch.zeros(3, 1), buf[:, :-1]], dim=1)
new_buf = torch.zeros_like(buf)
new_buf[:, 1:] = buf[:, :-1]  # ok
buf = new_buf
checks["rebind"] = torch.equal(buf, expect_buf)

for name, ok in checks.items():
    print(f"{name:22s} {ok}")
print("all safe:", all(checks.values()), "| shifted_f sum:", round(shifted_f.sum().item(), 3))
