"""Shift registers used for n-step returns and moving-window features."""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)


def push_reward(buf, n, r):
    buf[1:n] = buf[0:n - 1]  # expect: TEN403
    buf[0] = r
    return buf


def push_reward_safe(buf, n, r):
    buf[1:n] = buf[0:n - 1].clone()  # ok
    buf[0] = r
    return buf


def window_features(x, k):
    """x: (T, D) history; move rows down by k so fresh rows can go on top."""
    x[k:] = x[:-k]  # expect: TEN403
    return x


def report(name, fn):
    try:
        print(name, "->", fn())
    except RuntimeError as err:
        print(name, "-> error:", str(err).split(".")[0])


def n_step(push, n=4):
    buf = torch.zeros(n)
    for r in [1.0, 2.0, 3.0, 4.0, 5.0]:
        push(buf, n, r)
    discounts = 0.9 ** torch.arange(n, dtype=torch.float32)
    return round((buf * discounts).sum().item(), 4)


report("n-step safe", lambda: n_step(push_reward_safe))
report("n-step in-place", lambda: n_step(push_reward))
report("window k=2", lambda: window_features(torch.randn(6, 3), 2).sum().item())

hist = torch.randn(5, 3, 7)  # (T, batch, feat): rows are contiguous blocks
k = 1
try:
    hist[k:] = hist[:-k]  # expect: TEN403
except RuntimeError as err:
    print("history shift failed:", type(err).__name__)
hist2 = torch.randn(5, 3, 7)
want = torch.cat([hist2[:k], hist2[:-k]])
hist2[k:] = hist2[:-k].clone()  # ok
print("cloned history shift matches cat reference:", torch.equal(hist2, want))
