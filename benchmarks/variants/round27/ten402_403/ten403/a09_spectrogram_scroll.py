import torch

torch.manual_seed(0)

N_FREQ, N_COLS, HOP = 6, 10, 2
window = torch.hann_window(16)


def frames(signal):
    spec = torch.stft(signal, n_fft=16, hop_length=8, window=window, return_complex=True)
    return spec.abs()[:, :N_FREQ]


class Waterfall:
    """Scrolling spectrogram display buffer (freq, time)."""

    def __init__(self, direction):
        self.img = torch.zeros(2, N_FREQ, N_COLS)
        self.direction = direction

    def feed(self, cols):
        h = cols.shape[-1]
        if self.direction == "left":
            self.img[..., :-h] = self.img[..., h:]  # expect: TEN403
            self.img[..., -h:] = cols  # ok
        else:
            self.img[..., h:] = self.img[..., :-h]  # expect: TEN403
            self.img[..., :h] = cols.flip(-1)  # ok


class SafeWaterfall(Waterfall):
    def feed(self, cols):
        h = cols.shape[-1]
        self.img[..., :-h] = self.img[..., h:].clone()  # ok
        self.img[..., -h:] = cols


sig = torch.randn(2, 200)
spec = frames(sig)
for wf in (Waterfall("left"), Waterfall("right"), SafeWaterfall("left")):
    for i in range(0, spec.shape[-1] - HOP, HOP):
        wf.feed(spec[..., i:i + HOP])
    print(type(wf).__name__, wf.direction, "col sums", [round(v, 3) for v in wf.img[0].sum(0).tolist()])
