"""Assorted in-place numeric kernels used by the feature pipeline."""
import torch


def jacobi_sweep_(u, iters=1):
    """1-D Laplace relaxation with fixed ends; the right-hand side is a new tensor."""
    for _ in range(iters):
        u[1:-1] = 0.5 * (u[:-2] + u[2:])  # ok
    return u


def box3_smooth_(u):
    """3-point moving average, interior points only, without a temporary."""
    u[1:-1].add_(u[2:]).add_(u[:-2]).div_(3.0)  # expect: TEN403
    return u


def box3_smooth(u):
    out = u.clone()  # ok
    out[1:-1] = (u[:-2] + u[1:-1] + u[2:]) / 3.0  # ok
    return out


def pairwise_sum_(frames):
    """frames (B, T): frames[:, t] <- frames[:, t] + frames[:, t-1] for t >= 1."""
    frames[:, 1:].add_(frames[:, :-1])  # expect: TEN403
    return frames


def delay_even_phase_(x):
    """Delay the even polyphase component of a 1-D signal by one polyphase step."""
    x[2::2] = x[:-2:2]  # expect: TEN403
    x[0] = 0.0
    return x


def copy_odd_to_even_(x):
    """Sample-and-hold upsampling: every even slot takes the following odd sample."""
    x[0::2] = x[1::2]  # ok
    return x


class TopN:
    """Keeps the n largest scores seen so far, sorted descending, in a fixed tensor."""

    def __init__(self, n=5):
        self.n = n
        self.vals = torch.full((n,), float("-inf"))
        self.ids = torch.full((n,), -1, dtype=torch.long)

    def insert(self, score, idx):
        n = self.n
        pos = int((self.vals >= score).sum())
        if pos >= n:
            return
        self.vals[pos + 1:n] = self.vals[pos:n - 1]  # expect: TEN403
        self.ids[pos + 1:n] = self.ids[pos:n - 1].clone()  # ok
        self.vals[pos] = score
        self.ids[pos] = idx


class LagFeatures:
    """Rows of `hist` are the last L feature vectors, most recent first."""

    def __init__(self, lags=3, dim=2):
        self.hist = torch.zeros(lags, dim)

    def update(self, feat):
        self.hist[1:].copy_(self.hist[:-1])  # expect: TEN403
        self.hist[0].copy_(feat)  # ok
        return self.hist.flatten()


if __name__ == "__main__":
    u = torch.tensor([0.0, 0.0, 0.0, 0.0, 1.0])
    print("jacobi", jacobi_sweep_(u.clone(), 3).tolist())
    print("box3", box3_smooth(torch.arange(6.0)).tolist())
    print("pairwise", pairwise_sum_(torch.ones(2, 5)).tolist())
    print("odd->even", copy_odd_to_even_(torch.arange(6.0)).tolist())
    print("delay even", delay_even_phase_(torch.arange(8.0)).tolist())
    top = TopN(3)
    for i, s in enumerate([0.2, 0.9, 0.5]):
        top.insert(s, i)
    print("top", top.vals.tolist(), top.ids.tolist())
