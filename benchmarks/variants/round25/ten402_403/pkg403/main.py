import torch
import torch.nn as nn

from .augment import advance_, jitter_, mix_, swap_halves_
from .buffers import ReplayWindow
from .model import StreamingDWConv, delay_


def main():
    torch.manual_seed(0)
    rw, rw_safe = ReplayWindow(2, 4, 3), ReplayWindow(2, 4, 3)
    for t in range(6):
        x = torch.randn(2, 3)
        rw.push(x)
        rw_safe.push_safe(x)
    print("window checksum", round(rw.data.sum().item(), 5), "safe", round(rw_safe.data.sum().item(), 5))

    head = nn.Conv1d(3, 1, 3)
    sig = torch.randn(4, 3, 16)
    a = jitter_(sig.clone(), 2)
    b = advance_(sig.clone(), 3)
    c = mix_(sig.clone(), torch.randn(4, 3, 16), 0.7)
    d = swap_halves_(sig.clone())
    with torch.no_grad():
        for name, s in zip("abcd", (a, b, c, d)):
            print(name, round(head(s).mean().item(), 6))
        dw = StreamingDWConv(3, 5)
        outs = [dw(chunk) for chunk in sig[:1].split(2, dim=-1)]
        print("streaming conv checksum", round(torch.cat(outs, -1).sum().item(), 6))
        print("delayed checksum", round(delay_(sig.clone(), 3).sum().item(), 6))


if __name__ == "__main__":
    main()
