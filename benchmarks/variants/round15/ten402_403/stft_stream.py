"""Block-wise STFT analysis / overlap-add resynthesis on a stereo stream."""
import torch

torch.manual_seed(0)


class StreamingSTFT:
    def __init__(self, channels=2, n_fft=16, hop=4):
        self.n_fft, self.hop = n_fft, hop
        self.window = torch.hann_window(n_fft, periodic=True)  # ok
        self.frame_buf = torch.zeros(channels, n_fft)
        self.ola = torch.zeros(channels, n_fft)
        self.norm = torch.zeros(n_fft)

    def analyse(self, chunk):
        hop = chunk.size(-1)
        self.frame_buf[..., :-hop].copy_(self.frame_buf[..., hop:])  # expect: TEN403
        self.frame_buf[..., -hop:].copy_(chunk)  # ok
        return torch.fft.rfft(self.frame_buf * self.window)

    def synthesise(self, spec):
        frame = torch.fft.irfft(spec, n=self.n_fft) * self.window
        self.ola[..., :-self.hop] = self.ola[..., self.hop:].clone()  # ok
        self.ola[..., -self.hop:] = 0  # ok
        self.ola += frame
        out = self.ola[..., :self.hop].clone()  # ok
        return out


if __name__ == "__main__":
    stft = StreamingSTFT()
    sig = torch.randn(2, 64)
    out = torch.cat([stft.synthesise(stft.analyse(c)) for c in sig.split(stft.hop, -1)], -1)
    print(out.shape, out.abs().mean().item())
