"""Streaming log-mel front end: audio arrives in hops, frames are analysed as they fill."""
import math

import torch

from ring import append, make_buffer, rms


def mel_filterbank(n_fft, n_mels, sr, fmin=0.0, fmax=None):
    fmax = fmax or sr / 2
    def hz_to_mel(f):
        return 2595.0 * math.log10(1.0 + f / 700.0)
    mels = torch.linspace(hz_to_mel(fmin), hz_to_mel(fmax), n_mels + 2)
    hz = 700.0 * (10 ** (mels / 2595.0) - 1.0)
    bins = torch.floor((n_fft + 1) * hz / sr).long()
    fb = torch.zeros(n_mels, n_fft // 2 + 1)
    for m in range(1, n_mels + 1):
        lo, c, hi = bins[m - 1].item(), bins[m].item(), bins[m + 1].item()
        for k in range(lo, c):
            fb[m - 1, k] = (k - lo) / max(c - lo, 1)
        for k in range(c, hi):
            fb[m - 1, k] = (hi - k) / max(hi - c, 1)
    return fb


class StreamingLogMel:
    def __init__(self, sr=16000, n_fft=400, hop=160, n_mels=40, channels=1):
        self.hop = hop
        self.window = torch.hann_window(n_fft)
        self.fb = mel_filterbank(n_fft, n_mels, sr)
        self.frame = make_buffer(channels, n_fft)
        self.prev_frame = torch.zeros_like(self.frame)

    def push(self, chunk):
        """chunk: (channels, hop) -> log-mel (channels, n_mels) and a delta feature."""
        assert chunk.shape[-1] == self.hop
        self.prev_frame[:, :] = self.frame  # ok: distinct tensors
        append(self.frame, chunk)
        spec = torch.fft.rfft(self.frame * self.window).abs().pow(2)
        logmel = torch.log(spec @ self.fb.T + 1e-6)
        energy_delta = rms(self.frame) - rms(self.prev_frame)
        return logmel, energy_delta


def run(signal, **kw):
    fe = StreamingLogMel(**kw)
    feats = []
    for start in range(0, signal.shape[-1] - fe.hop + 1, fe.hop):
        feats.append(fe.push(signal[:, start:start + fe.hop])[0])
    return torch.stack(feats, dim=1)


if __name__ == "__main__":
    sr = 16000
    t = torch.arange(sr // 4) / sr
    audio = torch.sin(2 * math.pi * 300 * t).unsqueeze(0)
    print(run(audio, sr=sr).shape)
