import math
import torch

torch.manual_seed(0)

SR, DELAY = 100, 7
t = torch.arange(60) / SR
audio = torch.stack([torch.sin(2 * math.pi * 5 * t), torch.sign(torch.sin(2 * math.pi * 3 * t))])

delayed = audio.clone()
delayed[:, DELAY:] = delayed[:, :-DELAY]  # expect: TEN403
delayed[:, :DELAY] = torch.zeros(2, DELAY)  # ok

echo = audio.clone()
echo[:, DELAY:] = echo[:, DELAY:] + 0.5 * echo[:, :-DELAY]  # ok

ref_delayed = torch.cat([torch.zeros(2, DELAY), audio[:, :-DELAY]], 1)
out = torch.empty_like(audio)
out[:, :] = audio + 0.5 * ref_delayed  # ok
print("delayed energy %.4f (reference %.4f)" % (delayed.pow(2).sum().item(), ref_delayed.pow(2).sum().item()))
print("echo vs reference max diff %.6f" % (echo - out).abs().max().item())
