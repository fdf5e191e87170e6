import torch

torch.manual_seed(0)

# interleaved (re, im) pairs along the last dim: [re0, im0, re1, im1, ...]
x = torch.arange(2 * 10, dtype=torch.float32).view(2, 10)

delay_re = x.clone()
delay_re[:, 2::2] = delay_re[:, :-2:2]  # expect: TEN403
print("delayed real parts:", delay_re[0].tolist())

dup = x.clone()
dup[:, 1::2] = dup[:, ::2]  # ok
print("imag := real:", dup[0].tolist())

swap = x.clone()
swap[:, ::2] = x[:, 1::2]  # ok
print("real := imag (from original):", swap[0].tolist())

stride3 = x.clone()
stride3[:, 3::3] = stride3[:, :-3:3]  # expect: TEN403
print("every third delayed:", stride3[1].tolist())
