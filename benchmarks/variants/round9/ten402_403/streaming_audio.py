"""Streaming front end for an on-device keyword spotter, plus an overlap-add synthesiser
for the enhancement path."""
import torch
import torchaudio


class StreamingMelFrontend:
    """Consumes the microphone stream ``hop`` samples at a time and keeps a rolling
    (n_mels, context_frames) log-mel context for the classifier."""

    def __init__(self, sample_rate=16000, n_fft=512, win_length=400, hop=160, n_mels=40,
                 context_frames=98, channels=1, device="cpu"):
        self.hop = hop
        self.n_fft = n_fft
        self.window = torch.hann_window(win_length, device=device)
        self.mel = torchaudio.transforms.MelScale(
            n_mels=n_mels, sample_rate=sample_rate, n_stft=n_fft // 2 + 1
        ).to(device)
        self.samples = torch.zeros(channels, win_length, device=device)
        self.feats = torch.zeros(n_mels, context_frames, device=device)

    def reset(self):
        self.samples.zero_()
        self.feats.zero_()

    @torch.no_grad()
    def push(self, chunk):
        """``chunk``: (channels, hop) new samples. Returns the current feature context."""
        if chunk.shape[-1] != self.hop:
            raise ValueError(f"need exactly {self.hop} samples per push, got {chunk.shape[-1]}")
        self.samples[:, :-self.hop] = self.samples[:, self.hop:]  # expect: TEN403
        self.samples[:, -self.hop:] = chunk
        frame = self.samples.mean(dim=0) * self.window
        power = torch.fft.rfft(frame, n=self.n_fft).abs().pow(2)
        mel = torch.log(self.mel(power.unsqueeze(-1)).squeeze(-1) + 1e-6)
        self.feats = torch.cat([self.feats[:, 1:], mel.unsqueeze(1)], dim=1)  # ok
        return self.feats


class OverlapAdd:
    """Inverse of a framed STFT processor: accumulate windowed frames, emit ``hop`` samples per frame."""

    def __init__(self, frame_len=512, hop=128, device="cpu"):
        self.hop = hop
        self.window = torch.hann_window(frame_len, device=device).sqrt()
        self.acc = torch.zeros(frame_len, device=device)

    @torch.no_grad()
    def push(self, frame):
        self.acc += frame * self.window
        out = self.acc[: self.hop].clone()
        self.acc[: -self.hop] = self.acc[self.hop :].clone()  # ok
        self.acc[-self.hop :] = 0.0
        return out
