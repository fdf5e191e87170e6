# Block-based multichannel feedback delay (echo) processed in chunks, as in a streaming audio callback.
import math

import torch

torch.manual_seed(0)
torch.set_num_threads(1)

SR = 8000
BLOCK = 64


class EchoBlock:
    """history[:, 0] is the most recent sample, history[:, j] is j samples ago."""

    def __init__(self, channels, delay, feedback=0.5):
        self.delay = delay
        self.feedback = feedback
        self.history = torch.zeros(channels, delay + BLOCK)

    def __call__(self, block):
        n = block.shape[1]
        out = block + self.feedback * self.history[:, self.delay - n:self.delay].flip(1)
        self.history[:, n:] = self.history[:, :-n]  # expect: TEN403
        self.history[:, :n] = out.flip(1)  # ok
        return out


class EchoBlockCloned(EchoBlock):
    def __call__(self, block):
        n = block.shape[1]
        out = block + self.feedback * self.history[:, self.delay - n:self.delay].flip(1)
        self.history[:, n:] = self.history[:, :-n].clone()  # ok
        self.history[:, :n] = out.flip(1)  # ok
        return out


class EchoRing:
    """Same effect with a circular write pointer and no shifting at all."""

    def __init__(self, channels, delay, feedback=0.5):
        self.delay, self.feedback = delay, feedback
        self.ring = torch.zeros(channels, delay)
        self.ptr = 0

    def __call__(self, block):
        out = torch.empty_like(block)
        for i in range(block.shape[1]):
            out[:, i] = block[:, i] + self.feedback * self.ring[:, self.ptr]  # ok
            self.ring[:, self.ptr] = out[:, i]  # ok
            self.ptr = (self.ptr + 1) % self.delay
        return out


def tone(channels, seconds=0.1):
    t = torch.arange(int(SR * seconds)) / SR
    sig = torch.stack([torch.sin(2 * math.pi * (220 + 110 * c) * t) for c in range(channels)])
    sig[:, 200:] = 0.0  # ok
    return sig


def run(effect, sig):
    return torch.cat([effect(chunk) for chunk in sig.split(BLOCK, dim=1)], dim=1)


def main():
    sig = tone(2)
    delay = 160
    results = {}
    for cls in (EchoBlock, EchoBlockCloned, EchoRing):
        out = run(cls(2, delay), sig)
        results[cls.__name__] = out
        print(f"{cls.__name__:16s} echo energy in [200, 400): {out[:, 200:400].pow(2).sum():.3f}")
    print("blockwise (cloned) == ring:", torch.allclose(results["EchoBlockCloned"], results["EchoRing"], atol=1e-5))
    print("blockwise (in place) == ring:", torch.allclose(results["EchoBlock"], results["EchoRing"], atol=1e-5))


if __name__ == "__main__":
    main()
