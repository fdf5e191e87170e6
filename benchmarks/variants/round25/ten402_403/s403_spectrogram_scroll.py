"""Scrolling log-mel 'waterfall' for a live display, batch of microphones."""
import math
import torch


class Waterfall:
    def __init__(self, mics, bins, width):
        self.img = torch.zeros(mics, bins, width)
        self.peak = torch.zeros(mics, bins, width)

    def push(self, column):
        self.img[..., :-1] = self.img[..., 1:]  # expect: TEN403
        self.img[..., -1] = column  # ok
        self.peak[..., :-1].copy_(self.peak[..., 1:].clone())  # ok
        self.peak[..., -1] = torch.maximum(column, self.peak[..., -2])  # ok


torch.manual_seed(0)
n_fft, hop = 32, 16
t = torch.arange(2000) / 1000.0
sig = torch.stack([torch.sin(2 * math.pi * (50 + 40 * t) * t), torch.randn(2000) * 0.3])
spec = torch.stft(sig, n_fft, hop, window=torch.hann_window(n_fft), return_complex=True).abs().add(1e-6).log()
wf = Waterfall(2, spec.shape[1], 24)
for j in range(spec.shape[2]):
    wf.push(spec[:, :, j])
print("waterfall mean per column (mic0)", [round(v, 4) for v in wf.img[0].mean(0)[-6:].tolist()])
print("peak checksum", round(wf.peak.sum().item(), 4))
