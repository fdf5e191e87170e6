"""Streaming FIR filter with a per-channel delay line."""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)

C, TAPS = 2, 5
taps = torch.tensor([0.4, 0.3, 0.2, 0.07, 0.03])
delay = torch.zeros(C, TAPS)
delay_ok = torch.zeros(C, TAPS)
signal = torch.randn(12, C)

out, out_ok = [], []
for sample in signal:
    delay[:, 1:] = delay[:, :-1]  # expect: TEN403
    delay[:, 0] = sample  # ok
    out.append(delay @ taps)
    delay_ok[:, 1:] = delay_ok[:, :-1].clone()  # ok
    delay_ok[:, 0] = sample  # ok
    out_ok.append(delay_ok @ taps)

y, y_ok = torch.stack(out), torch.stack(out_ok)
print("max deviation from reference FIR:", (y - y_ok).abs().max().item())
