"""Strided slice writes: moving every other sample, and interleaving."""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)

x = torch.randn(20)
ref = x.clone()
ref[2::2] = ref[:-2:2].clone()  # ok
x[2::2] = x[:-2:2]  # expect: TEN403
print("even-index shift in place matches clone:", torch.equal(x, ref))

m = torch.randn(6, 12)
ref = m.clone()
ref[:, 3::3] = ref[:, 0:-3:3].clone()  # ok
m[:, 3::3] = m[:, 0:-3:3]  # expect: TEN403
print("every-third column shift matches clone:", torch.equal(m, ref))

# even <- odd: the two strided views never touch the same element
z = torch.randn(6, 12)
want = z.clone()
want[:, ::2] = want[:, 1::2].clone()  # ok
z[:, ::2] = z[:, 1::2]  # ok
print("even<-odd interleave matches clone:", torch.equal(z, want))

# rows 0..2 <- rows 3..5: disjoint halves
h = torch.randn(6, 4)
want = h.clone()
want[:3] = want[3:].clone()  # ok
h[:3] = h[3:6]  # ok
print("disjoint halves match clone:", torch.equal(h, want))

# a stepped right-shift in a second dimension
v = torch.randn(3, 16, 2)
ref = v.clone()
ref[:, 4::2] = ref[:, :-4:2].clone()  # ok
v[:, 4::2] = v[:, :-4:2]  # expect: TEN403
print("stepped time shift matches clone:", torch.equal(v, ref))
