"""Frame-by-frame ISTFT (overlap-add) for a streaming vocoder / speech enhancement model."""
import torch


class StreamingISTFT:
    def __init__(self, n_fft=512, hop=128, device="cpu"):
        assert n_fft % hop == 0
        self.n_fft = n_fft
        self.hop = hop
        self.window = torch.hann_window(n_fft, device=device)
        # normalisation so that overlap-added squared windows sum to one
        wsq = self.window.pow(2)
        norm = torch.zeros(n_fft, device=device)
        for k in range(0, n_fft, hop):
            norm[: n_fft - k] += wsq[k:]
            if k:
                norm[n_fft - k:] += wsq[:k]
        self.norm = norm[:hop].clamp_min(1e-8)
        self.ola_buf = torch.zeros(n_fft, device=device)

    def reset(self):
        self.ola_buf.zero_()

    def __call__(self, spec_frame):
        """spec_frame: complex (n_fft // 2 + 1,) -> hop new time-domain samples."""
        frame = torch.fft.irfft(spec_frame, n=self.n_fft) * self.window
        self.ola_buf += frame
        out = self.ola_buf[: self.hop] / self.norm
        self.ola_buf[: -self.hop].copy_(self.ola_buf[self.hop:])  # expect: TEN403
        self.ola_buf[-self.hop:].zero_()
        return out


class Enhancer(torch.nn.Module):
    """Toy magnitude-mask enhancer operating on one frame at a time."""

    def __init__(self, n_bins=257, hidden=256):
        super().__init__()
        self.rnn = torch.nn.GRUCell(n_bins, hidden)
        self.mask = torch.nn.Linear(hidden, n_bins)
        self.h = None

    def forward(self, mag):
        self.h = self.rnn(mag[None], self.h)
        return torch.sigmoid(self.mask(self.h))[0]


@torch.no_grad()
def enhance(signal, model, n_fft=512, hop=128):
    win = torch.hann_window(n_fft)
    spec = torch.stft(signal, n_fft, hop, window=win, return_complex=True, center=False)
    istft = StreamingISTFT(n_fft, hop)
    out = []
    for t in range(spec.size(-1)):
        frame = spec[:, t]
        mask = model(frame.abs().log1p())
        out.append(istft(frame * mask))
    return torch.cat(out)


if __name__ == "__main__":
    x = torch.randn(16000)
    y = enhance(x, Enhancer().eval())
    print(x.shape, y.shape)
