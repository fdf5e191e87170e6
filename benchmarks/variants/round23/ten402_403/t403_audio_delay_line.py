"""Streaming audio processing with a delay line and a short history buffer."""
import torch

torch.manual_seed(0)


class StreamingFIR:
    """Keeps the last `taps` samples per channel, newest at the end."""

    def __init__(self, channels, taps):
        self.buf = torch.zeros(channels, taps)
        self.kernel = torch.linspace(1.0, 0.1, taps)

    def process(self, chunk):
        k = chunk.shape[1]
        self.buf[:, :-k] = self.buf[:, k:]  # either: TEN403
        self.buf[:, -k:] = chunk
        return self.buf @ self.kernel


class EchoHistory:
    """history[..., 0] is the newest frame; older frames move to the right."""

    def __init__(self, channels, length):
        self.hist = torch.zeros(channels, length)

    def push(self, frame):
        self.hist[..., 1:].copy_(self.hist[..., :-1])  # expect: TEN403
        self.hist[..., 0] = frame
        return self.hist.sum(dim=1)


fir = StreamingFIR(2, 6)
echo = EchoHistory(2, 5)
signal = torch.randn(2, 12)
outs, echos = [], []
for t in range(0, 12, 2):
    outs.append(fir.process(signal[:, t:t + 2]))
for t in range(12):
    echos.append(echo.push(signal[:, t]))
print("fir:", [round(v, 4) for v in torch.stack(outs).flatten().tolist()])
print("echo history:", [round(v, 4) for v in echo.hist.flatten().tolist()])
