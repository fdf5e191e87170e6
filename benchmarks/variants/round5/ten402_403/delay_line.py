"""Block-based feed-forward comb filter for streaming audio.

The delay line stores the most recent samples first: buf[..., 0] is the
newest sample, buf[..., d] the sample from d steps ago."""
import torch


class StreamingComb:
    def __init__(self, channels, delay, gain=0.5, max_block=256):
        self.delay = delay
        self.gain = gain
        self.buf = torch.zeros(channels, delay + max_block)

    def process(self, block):
        # block: (channels, k) in time order
        k = block.shape[-1]
        self.buf[..., k:] = self.buf[..., :-k]  # expect: TEN403
        self.buf[..., :k] = block.flip(-1)
        delayed = self.buf[..., self.delay:self.delay + k].flip(-1)
        return block + self.gain * delayed


class RollComb(StreamingComb):
    def process(self, block):
        k = block.shape[-1]
        self.buf = torch.roll(self.buf, shifts=k, dims=-1)  # ok
        self.buf[..., :k] = block.flip(-1)
        delayed = self.buf[..., self.delay:self.delay + k].flip(-1)
        return block + self.gain * delayed


def offline_comb(x, delay, gain):
    y = x.clone()
    y[..., delay:] += gain * x[..., :-delay]  # ok
    return y


def stream(filt, x, block=64):
    return torch.cat([filt.process(x[..., i:i + block]) for i in range(0, x.shape[-1], block)], -1)


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(2, 1024)
    ref = offline_comb(x, delay=100, gain=0.5)
    print("roll version max err:", (stream(RollComb(2, 100), x) - ref).abs().max().item())
    print("in-place version max err:", (stream(StreamingComb(2, 100), x) - ref).abs().max().item())
