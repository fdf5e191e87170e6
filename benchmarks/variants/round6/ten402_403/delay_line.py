"""Sample-by-sample FIR and biquad filters with explicit delay lines.

Used for low-latency streaming where the filter state must persist
between blocks (cf. scipy.signal.lfilter with zi, or realtime DSP ports).
The NumPy FIR is the reference implementation.
"""
import numpy as np
import torch


class TorchFIR:
    def __init__(self, taps, channels):
        self.taps = torch.as_tensor(taps, dtype=torch.float32)
        self.z = torch.zeros(channels, len(taps))

    def process(self, block):
        """block: (channels, n) -> (channels, n)"""
        out = torch.empty_like(block)
        for i in range(block.shape[1]):
            self.z[:, 1:] = self.z[:, :-1]  # expect: TEN403
            self.z[:, 0] = block[:, i]
            out[:, i] = self.z @ self.taps
        return out


class TorchBiquad:
    def __init__(self, b, a, channels):
        self.b = torch.as_tensor(b, dtype=torch.float32)
        self.a = torch.as_tensor(a, dtype=torch.float32)
        self.xh = torch.zeros(channels, 3)
        self.yh = torch.zeros(channels, 3)

    def process(self, block):
        out = torch.empty_like(block)
        for i in range(block.shape[1]):
            self.xh[:, 1:], self.yh[:, 1:] = self.xh[:, :-1], self.yh[:, :-1]  # expect: TEN403
            self.xh[:, 0] = block[:, i]
            y = self.xh @ self.b - self.yh[:, 1:] @ self.a[1:]
            self.yh[:, 0] = y / self.a[0]
            out[:, i] = self.yh[:, 0]
        return out


def numpy_fir(taps, block, zi):
    out = np.empty_like(block)
    for i in range(block.shape[0]):
        zi[1:] = zi[:-1]  # ok
        zi[0] = block[i]
        out[i] = zi @ taps
    return out


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    taps = rng.standard_normal(5).astype(np.float32)
    sig = rng.standard_normal((2, 64)).astype(np.float32)
    ref = np.stack([numpy_fir(taps, sig[c], np.zeros(5, np.float32)) for c in range(2)])
    got = TorchFIR(taps, 2).process(torch.from_numpy(sig)).numpy()
    print("torch FIR matches numpy reference:", np.allclose(ref, got, atol=1e-5))
    bq = TorchBiquad([0.2, 0.4, 0.2], [1.0, -0.3, 0.1], 2)
    print("biquad out finite:", bool(torch.isfinite(bq.process(torch.from_numpy(sig))).all()))
