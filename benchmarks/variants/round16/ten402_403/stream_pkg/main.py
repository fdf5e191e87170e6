import math

import torch

from .buffers import ReversedFrameBuffer, RollingFrameBuffer, ShiftingFrameBuffer
from .features import LogPower, pre_emphasis, pre_emphasis_fast

torch.manual_seed(0)
torch.set_num_threads(1)

SIZE, HOP = 64, 16


def chirp(channels=2, n=320):
    t = torch.arange(n) / 1000.0
    return torch.stack([torch.sin(2 * math.pi * (50 + 40 * c) * t * (1 + 5 * t)) for c in range(channels)])


def extract(buffer_cls, emphasis, signal, extractor):
    buf = buffer_cls(signal.shape[0], SIZE, HOP)
    feats = []
    for block in signal.split(HOP, dim=1):
        frame = buf.push(block)
        feats.append(extractor(emphasis(frame)))
    return torch.stack(feats)


def main():
    sig = chirp()
    extractor = LogPower(SIZE)
    factory = {k: v for k, v in extractor.named_buffers()}  # expect: TEN402
    baseline = {k: v.clone() for k, v in extractor.named_buffers()}  # ok
    ref = extract(RollingFrameBuffer, pre_emphasis, sig, extractor)
    extractor.load_state_dict(baseline)
    for buffer_cls in (ShiftingFrameBuffer, ReversedFrameBuffer):
        for emphasis in (pre_emphasis, pre_emphasis_fast):
            extractor.load_state_dict(factory)
            out = extract(buffer_cls, emphasis, sig, extractor)
            print(f"{buffer_cls.__name__:20s} {emphasis.__name__:17s} max |diff| vs reference {(out - ref).abs().max():.4f}")


if __name__ == "__main__":
    main()
