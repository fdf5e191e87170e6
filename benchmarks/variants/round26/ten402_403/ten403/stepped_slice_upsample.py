import torch

torch.manual_seed(0)

# nearest-neighbour style 2x upsampling done inside a preallocated buffer
B, C, L = 2, 3, 8
x = torch.randn(B, C, L)

buf = torch.zeros(B, C, 2 * L)
buf[:, :, ::2] = x  # ok
buf[:, :, 1::2] = buf[:, :, ::2]  # ok

# a "spread" in place: put sample i at position 2i of the same buffer
spread = torch.zeros(B, C, 2 * L)
spread[:, :, :L] = x  # ok
spread[:, :, 2::2] = spread[:, :, 1:L]  # expect: TEN403
spread[:, :, 1::2] = 0  # ok

ref = torch.zeros(B, C, 2 * L)
ref[:, :, ::2] = x  # ok

# decimate in place: compact every other sample to the front
dec = buf.clone()
dec[:, :, :L] = dec[:, :, ::2]  # expect: TEN403

print("upsampled  c0:", [round(v, 4) for v in buf[0, 0, :8].tolist()])
print("spread     c0:", [round(v, 4) for v in spread[0, 0, :8].tolist()])
print("reference  c0:", [round(v, 4) for v in ref[0, 0, :8].tolist()])
print("spread mismatch", int((spread != ref).sum()), "decimate mismatch", int((dec[:, :, :L] != x).sum()))
