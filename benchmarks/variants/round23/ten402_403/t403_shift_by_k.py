"""Shift a batch of sequences right by a configurable amount."""
import torch

torch.manual_seed(0)


def delay(buf, k):
    """Delay every row of `buf` by k steps, padding the front with zeros."""
    if k > 0:
        buf[:, k:] = buf[:, :-k]  # expect: TEN403
        buf[:, :k] = 0
    return buf


def delay_configured(buf):
    k = 0  # delay disabled in this configuration
    L = buf.size(1)
    buf[:, k:] = buf[:, :L - k]  # ok
    return buf


x = torch.randn(2, 20)
ref = torch.zeros_like(x)
ref[:, 3:] = x[:, :-3]  # ok
print("delay 3 correct:", torch.equal(delay(x.clone(), 3), ref))
print("delay 3 sum: %.6f" % delay(x.clone(), 3).sum().item())
print("delay 0 (configured) unchanged:", torch.equal(delay_configured(x.clone()), x))
