"""python -m pkg_b.main : shifts whose write happens in another module."""
import torch

from . import ops
from .stream import DelayBank, Window

torch.manual_seed(0)
torch.set_num_threads(1)


def main():
    for safe in (False, True):
        bank = DelayBank(channels=2, length=8, hop=2, safe=safe)
        for t in range(4):
            blk = torch.tensor([[2.0 * t + 1, 2.0 * t], [-(2.0 * t + 1), -2.0 * t]])
            out = bank.push(blk)
        print(f"DelayBank safe={safe}: row0 = {out[0].tolist()}")
    w = Window(channels=1, length=6)
    for t in range(4):
        out = w.push(torch.tensor([[2.0 * t, 2.0 * t + 1]]))
    print(f"Window: {out[0].tolist()}")

    ring = torch.arange(6.0)
    try:
        ops.copy_into(ring[1:], ring[:-1])  # expect: TEN403
        print("ring shift:", ring.tolist())
    except RuntimeError as e:
        print("ring shift: RuntimeError:", str(e).split(".")[0])
    ring2 = torch.arange(6.0)
    ops.copy_into(ring2[1:], ring2[:-1].clone())  # ok
    print("ring2 shift:", ring2.tolist())
    buf = torch.arange(8.0)
    ops.copy_into(buf[:4], buf[4:])  # ok
    print("half copy:", buf.tolist())


if __name__ == "__main__":
    main()
