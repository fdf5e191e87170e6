"""python -m pkg403.main"""
import torch

from .buffers import LookaheadBuffer, LookbackBuffer

torch.manual_seed(0)


def stream(buf, steps=6):
    g = torch.Generator().manual_seed(5)
    acc = 0.0
    for t in range(steps):
        x = torch.randn(2, 3, 2, generator=g) + t
        acc += buf.push(x).mul(torch.linspace(0, 1, buf.data.shape[-1])).sum().item()
    return acc


def main():
    for safe in (True, False):
        print(f"lookback safe={safe} {stream(LookbackBuffer(3, 10, safe)):.5f}")
    for mode in ("inplace", "safe", "cat"):
        print(f"lookahead {mode} {stream(LookaheadBuffer(3, 10, mode)):.5f}")


if __name__ == "__main__":
    main()
