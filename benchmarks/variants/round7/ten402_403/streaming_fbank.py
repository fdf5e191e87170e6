"""Frame-synchronous log-mel features for a streaming ASR front end."""
import numpy as np
import torch
import torchaudio


class StreamingLogMel(torch.nn.Module):
    def __init__(self, sample_rate=16000, n_fft=400, hop=160, n_mels=80, batch=1):
        super().__init__()
        self.n_fft = n_fft
        self.hop = hop
        self.mel = torchaudio.transforms.MelSpectrogram(
            sample_rate, n_fft=n_fft, hop_length=hop, n_mels=n_mels, center=False, power=2.0
        )
        self.register_buffer("buffer", torch.zeros(batch, n_fft))
        self.frames_out = 0

    def reset(self):
        self.buffer.zero_()
        self.frames_out = 0

    @torch.no_grad()
    def push(self, chunk: torch.Tensor) -> torch.Tensor:
        """chunk: (B, hop) new samples -> (B, n_mels) for one frame."""
        hop = self.hop
        self.buffer[:, :-hop].copy_(self.buffer[:, hop:])  # expect: TEN403
        self.buffer[:, -hop:].copy_(chunk)  # ok
        spec = self.mel(self.buffer)
        self.frames_out += 1
        return torch.log(spec[..., 0] + 1e-6)


def offline_logmel(wave: torch.Tensor, fe: StreamingLogMel) -> torch.Tensor:
    frames = wave.unfold(-1, fe.n_fft, fe.hop)
    spec = fe.mel(frames.reshape(-1, fe.n_fft))
    return torch.log(spec[..., 0] + 1e-6).reshape(*frames.shape[:-1], -1)


def reference_frames(wave: np.ndarray, n_fft=400, hop=160) -> np.ndarray:
    buf = np.zeros(n_fft, dtype=np.float32)
    out = []
    for start in range(0, len(wave) - hop + 1, hop):
        buf[:-hop] = buf[hop:]  # ok
        buf[-hop:] = wave[start:start + hop]
        out.append(buf.copy())
    return np.stack(out)
