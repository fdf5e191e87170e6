"""Relative-position bias trick: shift rows of a score matrix along the diagonal."""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)

L = 5
bias = torch.arange(L * L, dtype=torch.float32).view(L, L)

shifted = bias.clone()  # ok
shifted[1:, 1:] = shifted[:-1, :-1]  # expect: TEN403

shifted_ok = bias.clone()  # ok
shifted_ok[1:, 1:] = bias[:-1, :-1]  # ok

toeplitz = torch.zeros(L, L)
toeplitz[0] = torch.arange(L, dtype=torch.float32)  # ok
for i in range(1, L):
    toeplitz[i, i:] = toeplitz[i - 1, i - 1 : L - 1]  # ok

print("diag shift equal:", torch.equal(shifted, shifted_ok))
print(toeplitz)
