import torch

from .buffers import rolled
from .processors import OfflineConv1d, StreamingConv1d, StreamingRMS


def main():
    torch.manual_seed(0)
    conv, rms = StreamingConv1d(3, 3), StreamingRMS(3, 8)
    signal = torch.randn(2, 3, 16)
    outs = []
    with torch.no_grad():
        for chunk in signal.split(4, dim=-1):
            outs.append(conv(chunk))
            rms(chunk)
        offline = OfflineConv1d(conv.conv, conv.ctx)(signal)
    streamed = torch.cat(outs, -1)
    print("streaming == offline:", torch.allclose(streamed, offline, atol=1e-6))
    print("levels:", rms.levels[0].tolist()[-4:], rolled(rms.levels, 1).shape)


if __name__ == "__main__":
    main()
