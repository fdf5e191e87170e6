"""Linear-feedback shift registers for a batch of pseudo-random bit streams."""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)

BATCH, WIDTH = 4, 8
state = torch.randint(0, 2, (BATCH, WIDTH), dtype=torch.uint8)
state[:, 0] = 1  # ok
ref = state.clone()  # ok
bits, bits_ref = [], []
for _ in range(10):
    fb = state[:, 7] ^ state[:, 5] ^ state[:, 4] ^ state[:, 3]
    bits.append(state[:, 7].clone())
    state.narrow(1, 1, WIDTH - 1).copy_(state.narrow(1, 0, WIDTH - 1))  # expect: TEN403
    state[:, 0] = fb  # ok

    fb_r = ref[:, 7] ^ ref[:, 5] ^ ref[:, 4] ^ ref[:, 3]
    bits_ref.append(ref[:, 7].clone())
    ref = torch.roll(ref, 1, dims=1)  # ok
    ref[:, 0] = fb_r  # ok

print("stream  :", torch.stack(bits)[:, 0].tolist())
print("expected:", torch.stack(bits_ref)[:, 0].tolist())
