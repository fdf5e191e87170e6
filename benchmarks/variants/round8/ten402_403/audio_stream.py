"""Real-time feature extraction for a streaming keyword spotter."""
import queue

import numpy as np
import sounddevice as sd
import torch
import torchaudio


class StreamingSTFT:
    def __init__(self, n_fft=512, hop=160, device="cpu"):
        self.n_fft = n_fft
        self.hop = hop
        self.window = torch.hann_window(n_fft, device=device)
        self.buffer = torch.zeros(1, n_fft, device=device)

    @torch.no_grad()
    def __call__(self, chunk):
        frames = []
        for i in range(0, chunk.shape[-1] - self.hop + 1, self.hop):
            self.buffer[..., :-self.hop] = self.buffer[..., self.hop:]  # expect: TEN403
            self.buffer[..., -self.hop:] = chunk[..., i:i + self.hop]
            frames.append(torch.fft.rfft(self.buffer * self.window).abs().pow(2))
        return torch.stack(frames, dim=-1)


class RollingLogMel:
    def __init__(self, sample_rate=16000, n_fft=512, hop=160, n_mels=40, context_frames=98, device="cpu"):
        self.stft = StreamingSTFT(n_fft, hop, device)
        self.fbank = torchaudio.functional.melscale_fbanks(
            n_fft // 2 + 1, 20.0, sample_rate / 2, n_mels, sample_rate
        ).to(device)
        self.spec = torch.full((1, n_mels, context_frames), -11.5, device=device)

    @torch.no_grad()
    def update(self, chunk):
        power = self.stft(chunk)
        mel = torch.log(torch.matmul(self.fbank.T, power) + 1e-6)
        n_new = mel.shape[-1]
        self.spec[:, :, :-n_new] = self.spec[:, :, n_new:]  # expect: TEN403
        self.spec[:, :, -n_new:] = mel
        return self.spec


class ContextWindow:
    """Raw-waveform context for a wav2vec-style streaming encoder."""

    def __init__(self, length, device="cpu"):
        self.ctx = torch.zeros(1, length, device=device)

    def push(self, chunk):
        n = chunk.shape[-1]
        self.ctx = torch.cat((self.ctx[..., n:], chunk), dim=-1)  # ok
        return self.ctx


class MicReader:
    def __init__(self, sample_rate=16000, block=1600):
        self.q = queue.Queue()
        self.block = block
        self.pending = np.zeros(block * 4, dtype=np.float32)
        self.stream = sd.InputStream(samplerate=sample_rate, channels=1, blocksize=block, callback=self._cb)

    def _cb(self, indata, frames, time_info, status):
        n = indata.shape[0]
        self.pending[:-n] = self.pending[n:]  # ok
        self.pending[-n:] = indata[:, 0]
        self.q.put(indata[:, 0].copy())

    def chunks(self):
        with self.stream:
            while True:
                yield torch.from_numpy(self.q.get()).unsqueeze(0)


def run(model, labels, threshold=0.8, device="cpu"):
    feats = RollingLogMel(device=device)
    model.eval().to(device)
    for chunk in MicReader().chunks():
        spec = feats.update(chunk.to(device))
        probs = torch.softmax(model(spec.unsqueeze(0)), dim=-1)[0]
        p, idx = probs.max(0)
        if p.item() > threshold and labels[idx] != "_silence_":
            print(f"detected: {labels[idx]} ({p.item():.2f})")
