import torch

from .buffers import Ring, RollRing
from .features import deltas, deltas_inplace, frame_energy, pre_emphasis, pre_emphasis_inplace
from .model import StreamingConv


def main():
    torch.manual_seed(0)
    audio = torch.randn(2, 200).cumsum(-1) * 0.1
    for cls in (Ring, RollRing):
        r = cls(2, 32)
        for s in range(0, 200, 10):
            out = r.push(audio[:, s:s + 10])
        print(cls.__name__, [round(v, 4) for v in out[0, :6].tolist()])
    e1 = frame_energy(pre_emphasis(audio))
    e2 = frame_energy(pre_emphasis_inplace(audio.clone()))
    print("pre-emphasis energy", [round(v, 5) for v in e1[0, :4].tolist()], [round(v, 5) for v in e2[0, :4].tolist()])
    feats = torch.randn(2, 5, 12)
    d1 = deltas(feats)
    d2 = deltas_inplace(feats.clone())
    print("delta mismatch", round((d1 - d2).abs().max().item(), 4))
    torch.manual_seed(1)
    m1 = StreamingConv(3, 4)
    m2 = StreamingConv(3, 4, use_cat=True)
    m2.load_state_dict(m1.state_dict())
    x = torch.randn(2, 3, 9)
    with torch.no_grad():
        a, b = m1.forward_stream(x), m2.forward_stream(x)
    print("stream conv", round(a.sum().item(), 4), round(b.sum().item(), 4))


if __name__ == "__main__":
    main()
