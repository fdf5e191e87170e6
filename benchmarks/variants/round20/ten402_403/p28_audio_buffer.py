"""Streaming audio: a rolling analysis buffer fed with hop-sized chunks."""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)

N_FFT, HOP = 16, 4


class MonoBuffer:
    def __init__(self):
        self.buf = torch.zeros(N_FFT)

    def feed(self, chunk):
        self.buf[:-HOP] = self.buf[HOP:]  # expect: TEN403
        self.buf[-HOP:] = chunk
        return self.buf


class MultiBuffer:
    def __init__(self, channels, safe):
        self.buf = torch.zeros(channels, N_FFT)
        self.safe = safe

    def feed(self, chunk):
        if self.safe:
            self.buf[:, :N_FFT - HOP] = self.buf[:, HOP:].clone()  # ok
        else:
            self.buf[:, HOP:] = self.buf[:, :-HOP]  # expect: TEN403
        if self.safe:
            self.buf[:, -HOP:] = chunk
        else:
            self.buf[:, :HOP] = chunk.flip(1)  # newest-first layout
        return self.buf


def spectra(buf_obj, chunks, newest_first):
    frames = []
    for c in chunks:
        b = buf_obj.feed(c)
        frame = b.flip(-1) if newest_first else b
        frames.append(torch.fft.rfft(frame * torch.hann_window(N_FFT)).abs())
    return torch.stack(frames)


chunks = torch.randn(10, 2, HOP)
ref = spectra(MultiBuffer(2, safe=True), chunks, newest_first=False)
got = spectra(MultiBuffer(2, safe=False), chunks, newest_first=True)
print("stereo: newest-first in-place buffer matches reference:", torch.allclose(got, ref, atol=1e-5))

mono = MonoBuffer()
try:
    for c in chunks[:, 0]:
        mono.feed(c)
    print("mono buffer energy:", mono.buf.pow(2).sum().item())
except RuntimeError as err:
    print("mono buffer update failed:", str(err)[:60])

# writing the shifted signal into a separate output is fine
sig = torch.randn(2, 64)
delayed = torch.zeros_like(sig)
delayed[:, HOP:] = sig[:, :-HOP]  # ok
print("delay check:", torch.equal(delayed[:, HOP:], sig[:, :-HOP]))
