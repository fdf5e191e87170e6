"""Streaming log-mel front end for on-device keyword spotting / ASR.

Audio arrives in hops; a fixed-length analysis window slides over the
stream, like the ring buffers in torchaudio streaming examples and
silero/webrtc-style VAD wrappers.
"""
import math

import torch


class StreamingWindow:
    def __init__(self, channels=1, win_length=400, sample_rate=16000):
        self.sample_rate = sample_rate
        self.win_length = win_length
        self.buffer = torch.zeros(channels, win_length)
        self.window = torch.hann_window(win_length)

    def push(self, chunk):
        hop = chunk.shape[-1]
        if hop >= self.win_length:
            self.buffer.copy_(chunk[..., -self.win_length:])
        else:
            self.buffer[..., :-hop] = self.buffer[..., hop:]  # expect: TEN403
            self.buffer[..., -hop:] = chunk
        return self.features()

    def features(self, n_mels=40):
        spec = torch.fft.rfft(self.buffer * self.window).abs() ** 2
        bins = spec.shape[-1]
        edges = torch.linspace(0, bins, n_mels + 1).long()
        mel = torch.stack([spec[..., a:max(b, a + 1)].mean(-1) for a, b in zip(edges[:-1], edges[1:])], -1)
        return torch.log(mel + 1e-6)


class StreamingWindowCat(StreamingWindow):
    def push(self, chunk):
        hop = chunk.shape[-1]
        self.buffer = torch.cat([self.buffer[..., hop:], chunk], dim=-1)[..., -self.win_length:]  # ok
        return self.features()


class StreamingWindowClone(StreamingWindow):
    def push(self, chunk):
        hop = chunk.shape[-1]
        self.buffer[..., :-hop] = self.buffer[..., hop:].clone()  # ok
        self.buffer[..., -hop:] = chunk
        return self.features()


if __name__ == "__main__":
    sr = 16000
    t = torch.arange(sr) / sr
    signal = torch.sin(2 * math.pi * 440 * t).unsqueeze(0)
    ref = signal[..., 3200 - 400:3200]
    for cls in (StreamingWindow, StreamingWindowCat, StreamingWindowClone):
        stream = cls()
        try:
            for start in range(0, 3200, 160):
                stream.push(signal[..., start:start + 160])
            print(cls.__name__, torch.allclose(stream.buffer, ref))
        except RuntimeError as e:
            print(cls.__name__, "RuntimeError:", str(e)[:60])
