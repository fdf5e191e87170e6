"""Streaming STFT front-end with a sliding analysis window (multi-channel audio)."""
import math
import torch


class SlidingWindow:
    def __init__(self, channels, win, hop):
        self.win, self.hop = win, hop
        self.buf = torch.zeros(channels, win)

    def feed(self, chunk):
        hop = self.hop
        self.buf[:, :-hop] = self.buf[:, hop:]  # expect: TEN403
        self.buf[:, -hop:] = chunk  # ok
        return self.buf


class SlidingWindowCopy(SlidingWindow):
    def feed(self, chunk):
        hop = self.hop
        self.buf[:, :-hop] = self.buf[:, hop:].clone()  # ok
        self.buf[:, -hop:] = chunk  # ok
        return self.buf


torch.manual_seed(0)
sr, win, hop = 800, 64, 16
t = torch.arange(sr) / sr
audio = torch.stack([torch.sin(2 * math.pi * 50 * t), torch.sin(2 * math.pi * 120 * t)]) + 0.01 * torch.randn(2, sr)
window = torch.hann_window(win)
for cls in (SlidingWindow, SlidingWindowCopy):
    sw = cls(2, win, hop)
    energy = []
    for i in range(0, sr, hop):
        frame = sw.feed(audio[:, i:i + hop])
        spec = torch.fft.rfft(frame * window).abs()
        energy.append(spec.argmax(-1).float())
    e = torch.stack(energy)
    print(cls.__name__, "peak bins ch0/ch1:", round(e[10:, 0].mean().item(), 4), round(e[10:, 1].mean().item(), 4),
          "buf checksum", round(sw.buf.sum().item(), 5))
