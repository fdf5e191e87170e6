"""Streaming feature pipeline; run with `python -m shiftpkg.main`."""
import torch

from shiftpkg.buffers import delay_last_axis, delay_last_axis_roll, overwrite_from, push_front, push_front_safe


def main():
    torch.manual_seed(0)
    feats = [torch.randn(2) for _ in range(5)]

    for fn in (push_front, push_front_safe):
        buf = torch.zeros(4, 2)
        try:
            for f in feats:
                fn(buf, f)
            print(fn.__name__, [round(v, 4) for v in buf.flatten().tolist()])
        except RuntimeError as e:
            print(fn.__name__, "RuntimeError:", str(e).split(".")[0])

    sig = torch.randn(3, 16)
    a = delay_last_axis(sig.clone(), 3)
    b = delay_last_axis_roll(sig.clone(), 3)
    print("delay copy_ vs roll equal:", torch.equal(a, b))
    print("delay copy_ sum: %.6f roll sum: %.6f" % (a.sum().item(), b.sum().item()))

    dst = overwrite_from(torch.zeros(3, 16), sig)
    print("overwrite sum: %.6f" % dst.sum().item())


if __name__ == "__main__":
    main()
