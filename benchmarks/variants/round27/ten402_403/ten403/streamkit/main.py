import torch

from .buffers import DelayLine, SafeDelayLine
from .features import deltas_inplace, stack_context
from .kvcache import RollingKV, SinkKV


def main():
    torch.manual_seed(0)
    frames = torch.randn(12, 3)
    for cls in (DelayLine, SafeDelayLine):
        line = cls(3, 5)
        for f in frames:
            buf = line.push(f)
        print(cls.__name__, [round(v, 4) for v in buf[0].tolist()])

    feats = torch.randn(2, 6, 3)
    work = feats.clone()
    prev = deltas_inplace(work)
    print("shifted-by-transpose equals prev:", torch.equal(work[:, 1:], prev[:, 1:]))
    print("context checksum %.5f" % stack_context(feats, 2).sum().item())

    for cls in (RollingKV, SinkKV):
        cache = cls(2, 2, 4, 3)
        keys = [torch.full((2, 2, 3), float(i)) for i in range(7)]
        for k in keys:
            cache.add(k)
        print(cls.__name__, "positions", cache.keys[0, 0, :, 0].tolist())


if __name__ == "__main__":
    main()
