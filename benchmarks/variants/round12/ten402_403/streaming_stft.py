"""Streaming STFT front-end: frames arrive in hops, the analysis buffer slides."""
import torch

N_FFT = 512


class StreamingSTFT:
    """75% overlap: hop is a quarter of the frame."""

    hop = N_FFT // 4

    def __init__(self, channels: int = 1):
        self.buf = torch.zeros(channels, N_FFT)
        self.window = torch.hann_window(N_FFT)

    def push(self, chunk: torch.Tensor) -> torch.Tensor:
        """chunk: (channels, hop) -> one spectrum frame (channels, N_FFT // 2 + 1)."""
        hop = self.hop
        self.buf[:, :-hop] = self.buf[:, hop:]  # expect: TEN403
        self.buf[:, -hop:] = chunk
        return torch.fft.rfft(self.buf * self.window)


class HalfOverlapSTFT:
    """50% overlap: the two halves of the buffer never alias."""

    hop = N_FFT // 2

    def __init__(self, channels: int = 1):
        self.buf = torch.zeros(channels, N_FFT)
        self.window = torch.hann_window(N_FFT)

    def push(self, chunk: torch.Tensor) -> torch.Tensor:
        hop = self.hop
        self.buf[:, :hop] = self.buf[:, hop:]  # ok
        self.buf[:, hop:] = chunk
        return torch.fft.rfft(self.buf * self.window)


class ConfigurableSTFT:
    def __init__(self, hop: int, channels: int = 1):
        assert 0 < hop <= N_FFT
        self.hop = hop
        self.buf = torch.zeros(channels, N_FFT)
        self.window = torch.hann_window(N_FFT)

    def push(self, chunk):
        hop = self.hop
        self.buf[:, :-hop] = self.buf[:, hop:]  # either
        self.buf[:, -hop:] = chunk
        return torch.fft.rfft(self.buf * self.window)

    def push_cat(self, chunk):
        self.buf = torch.cat([self.buf[:, self.hop:], chunk], dim=1)  # ok
        return torch.fft.rfft(self.buf * self.window)


def istft_overlap_add(frames: torch.Tensor, hop: int) -> torch.Tensor:
    """frames: (n_frames, N_FFT) real frames -> signal via overlap-add into a fresh buffer."""
    n = frames.shape[0]
    out = torch.zeros((n - 1) * hop + N_FFT)
    for i in range(n):
        out[i * hop:i * hop + N_FFT] += frames[i]  # ok
    return out
