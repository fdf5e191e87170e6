"""Batch of Fibonacci LFSR scramblers (one register per stream) and a streaming causal conv."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class LFSR(nn.Module):
    def __init__(self, streams, width=7, taps=(6, 5)):
        super().__init__()
        self.taps = taps
        seed = torch.randint(0, 2, (streams, width))
        seed[:, 0] = 1  # ok
        self.register_buffer("reg", seed)

    def step(self):
        out = self.reg[:, -1].clone()
        fb = self.reg[:, self.taps[0]] ^ self.reg[:, self.taps[1]]
        self.reg[:, 1:].copy_(self.reg[:, :-1])  # expect: TEN403
        self.reg[:, 0] = fb  # ok
        return out


class LFSRRoll(LFSR):
    def step(self):
        out = self.reg[:, -1].clone()
        fb = self.reg[:, self.taps[0]] ^ self.reg[:, self.taps[1]]
        self.reg.copy_(torch.roll(self.reg, 1, dims=1))  # ok
        self.reg[:, 0] = fb  # ok
        return out


class LFSRCat(LFSR):
    def step(self):
        out = self.reg[:, -1].clone()
        fb = self.reg[:, self.taps[0]] ^ self.reg[:, self.taps[1]]
        self.reg = torch.cat([fb[:, None], self.reg[:, :-1]], dim=1)  # ok
        return out


class StreamingConv(nn.Module):
    """Causal conv fed one frame at a time; keeps the last k-1 frames per stream."""

    def __init__(self, streams, ch, k=4):
        super().__init__()
        self.conv = nn.Conv1d(ch, ch, k)
        self.register_buffer("ctx", torch.zeros(streams, ch, k))

    def forward(self, frame):
        self.ctx[..., :-1] = self.ctx[..., 1:].clone()  # ok
        self.ctx[..., -1] = frame  # ok
        return self.conv(self.ctx).squeeze(-1)


def scramble(cls, bits):
    gen = cls(bits.shape[0])
    return torch.stack([bits[:, t] ^ gen.step() for t in range(bits.shape[1])], 1)


def main():
    bits = torch.randint(0, 2, (3, 24))
    for cls in (LFSR, LFSRRoll, LFSRCat):
        torch.manual_seed(5)
        s = scramble(cls, bits)
        print(f"{cls.__name__:8s}", "".join(str(int(v)) for v in s[0]))
    conv = StreamingConv(2, 3)
    x = torch.randn(2, 3, 10)
    with torch.no_grad():
        streamed = torch.stack([conv(x[..., t]) for t in range(10)], -1)
        offline = conv.conv(nn.functional.pad(x, (3, 0)))
    print("streaming conv matches offline:", torch.allclose(streamed, offline, atol=1e-6))


if __name__ == "__main__":
    main()
