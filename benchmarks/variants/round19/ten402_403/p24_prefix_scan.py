"""Hillis-Steele parallel prefix sum over the time axis (used for cumulative returns)."""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)

rewards = torch.randint(0, 5, (3, 8)).float()
x = rewards.clone()  # ok
k = 1
while k < x.shape[1]:
    x[:, k:] += x[:, :-k]  # expect: TEN403
    k *= 2

y = rewards.clone()  # ok
k = 1
while k < y.shape[1]:
    y[:, k:] = y[:, k:] + y[:, :-k]  # ok
    k *= 2

z = rewards.clone()  # ok
step = 1
while step < z.shape[1]:
    shifted = z[:, :-step].clone()  # ok
    z[:, step:] += shifted  # ok
    step <<= 1

ref = rewards.cumsum(1)
print("inplace scan ok?", torch.equal(x, ref), "out-of-place ok?", torch.equal(y, ref), "cloned ok?", torch.equal(z, ref))
