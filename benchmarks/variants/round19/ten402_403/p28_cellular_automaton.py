"""Elementary cellular automaton (rule 90) on a batch of 1-D worlds."""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)

B, N, STEPS = 2, 11, 4
world = torch.zeros(B, N, dtype=torch.int64)
world[:, N // 2] = 1  # ok


def step_naive(w):
    left = w[:, :-2]
    centre_out = w[:, 1:-1]
    right = w[:, 2:]
    centre_out.copy_(left)  # expect: TEN403
    centre_out.bitwise_xor_(right)  # expect: TEN403
    return w


def step_ok(w):
    new = torch.zeros_like(w)  # ok
    new[:, 1:-1] = w[:, :-2] ^ w[:, 2:]  # ok
    return new


a, b = world.clone(), world.clone()
for _ in range(STEPS):
    a = step_naive(a)
    b = step_ok(b)
print("naive :", "".join("#" if c else "." for c in a[0].tolist()))
print("proper:", "".join("#" if c else "." for c in b[0].tolist()))
