"""Streaming voice activity detection with a small causal model and a fixed context window."""
from typing import Iterator, Tuple

import numpy as np
import torch

from ring import push


class StreamingVAD:
    def __init__(self, model, sample_rate=16000, chunk_ms=32, context_ms=512, pre_roll_ms=200,
                 threshold=0.5, min_silence_ms=300, device="cpu"):
        self.model = model.to(device).eval()
        self.sr = sample_rate
        self.chunk = sample_rate * chunk_ms // 1000
        self.device = device
        self.threshold = threshold
        self.min_silence = min_silence_ms * sample_rate // 1000
        self.context = torch.zeros(1, sample_rate * context_ms // 1000, device=device)
        self.pre_roll = torch.zeros(1, sample_rate * pre_roll_ms // 1000, device=device)
        self.state = None
        self.speaking = False
        self.silence = 0

    def reset(self):
        self.context.zero_()
        self.state = None
        self.speaking = False
        self.silence = 0

    @torch.no_grad()
    def __call__(self, chunk: np.ndarray) -> Tuple[float, bool]:
        x = torch.as_tensor(chunk, dtype=torch.float32, device=self.device).reshape(1, -1)
        push(self.context, x)
        prob, self.state = self.model(self.context, self.state)
        prob = float(prob)
        if prob >= self.threshold:
            if not self.speaking:
                self.pre_roll.copy_(self.context[:, -self.pre_roll.shape[-1]:])  # ok
            self.speaking, self.silence = True, 0
        elif self.speaking:
            self.silence += x.shape[-1]
            if self.silence >= self.min_silence:
                self.speaking = False
        return prob, self.speaking


def segments(vad: StreamingVAD, audio: np.ndarray) -> Iterator[Tuple[int, int]]:
    start = None
    for i in range(0, len(audio) - vad.chunk + 1, vad.chunk):
        _, active = vad(audio[i:i + vad.chunk])
        if active and start is None:
            start = i
        elif not active and start is not None:
            yield start, i
            start = None
    if start is not None:
        yield start, len(audio)
