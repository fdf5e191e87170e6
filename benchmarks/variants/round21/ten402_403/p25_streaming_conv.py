"""Streaming inference for a causal Conv1d (e.g. a keyword-spotting or denoising front-end):
a ring buffer keeps the last `receptive` samples, each new hop is appended at the end."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class StreamingConv:
    def __init__(self, conv, hop, channels, safe=False):
        self.conv = conv
        self.hop = hop
        self.receptive = conv.kernel_size[0] + hop - 1
        self.buffer = torch.zeros(channels, self.receptive)
        self.safe = safe

    @torch.no_grad()
    def process(self, chunk):
        if self.safe:
            self.buffer = torch.cat([self.buffer[:, self.hop:], chunk], dim=1)  # ok
        else:
            self.buffer[:, :-self.hop] = self.buffer[:, self.hop:]  # expect: TEN403
            self.buffer[:, -self.hop:] = chunk  # ok
        return self.conv(self.buffer.unsqueeze(0)).squeeze(0)


class StereoStreamingConv(StreamingConv):
    @torch.no_grad()
    def process(self, chunk):
        self.buffer[:, :-self.hop] = self.buffer[:, self.hop:]  # either: TEN403
        self.buffer[:, -self.hop:] = chunk
        return self.conv(self.buffer.unsqueeze(0)).squeeze(0)


def offline(conv, signal):
    with torch.no_grad():
        padded = torch.nn.functional.pad(signal, (conv.kernel_size[0] - 1, 0))
        return conv(padded.unsqueeze(0)).squeeze(0)


def stream(cls, conv, signal, hop, safe=False):
    s = cls(conv, hop, channels=signal.shape[0], safe=safe)
    outs = []
    for i in range(0, signal.shape[1], hop):
        try:
            outs.append(s.process(signal[:, i:i + hop]))
        except RuntimeError as e:
            return "RuntimeError: " + str(e).split(".")[0]
    return torch.cat(outs, 1)


if __name__ == "__main__":
    hop = 4
    mono_conv = nn.Conv1d(1, 2, kernel_size=9)
    mono = torch.randn(1, 32)
    ref = offline(mono_conv, mono)
    for safe in (False, True):
        out = stream(StreamingConv, mono_conv, mono, hop, safe)
        msg = out if isinstance(out, str) else f"max|stream-offline|={(out - ref).abs().max().item():.6f}"
        print(f"mono safe={safe}: {msg}")
    st_conv = nn.Conv1d(2, 2, kernel_size=9)
    stereo = torch.randn(2, 32)
    out = stream(StereoStreamingConv, st_conv, stereo, hop)
    print(f"stereo: max|stream-offline|={(out - offline(st_conv, stereo)).abs().max().item():.6f}")
