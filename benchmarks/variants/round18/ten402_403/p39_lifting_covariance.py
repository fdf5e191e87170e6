"""Haar lifting on interleaved samples, and covariance symmetrisation in a padded buffer."""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)


def haar_forward_(x):
    """In-place lifting: odd samples become details, even samples approximations."""
    even, odd = x[:, ::2], x[:, 1::2]
    odd -= even  # ok
    even += 0.5 * odd  # ok
    return x


def haar_inverse_(x):
    x[:, ::2] -= 0.5 * x[:, 1::2]  # ok
    x[:, 1::2] += x[:, ::2]  # ok
    return x


class KalmanFilter:
    """State covariance lives in the top-left d x d block of a padded (d+1) x (d+1) buffer."""

    def __init__(self, d, q=0.1, r=0.5):
        self.d = d
        self.x = torch.zeros(d)
        self.buf = torch.zeros(d + 1, d + 1)
        self.buf[:d, :d] = torch.eye(d)
        self.F = torch.eye(d) + 0.1 * torch.randn(d, d)
        self.Q, self.R = q * torch.eye(d), r * torch.eye(d)

    @property
    def P(self):
        return self.buf[:self.d, :self.d]

    def symmetrize(self):
        P = self.P
        P.add_(P.t())  # expect: TEN403
        P.mul_(0.5)

    def predict(self):
        self.x = self.F @ self.x
        self.P.copy_(self.F @ self.P @ self.F.T + self.Q)  # ok
        self.symmetrize()

    def update(self, z):
        S = self.P + self.R
        K = self.P @ torch.linalg.inv(S)
        self.x = self.x + K @ (z - self.x)
        self.P.copy_((torch.eye(self.d) - K) @ self.P)  # ok
        self.symmetrize()


class KalmanFilterContig(KalmanFilter):
    def symmetrize(self):
        P = self.P
        P.add_(P.t().contiguous())  # ok
        P.mul_(0.5)


class KalmanFilterMirror(KalmanFilter):
    def symmetrize(self):
        P = self.P
        iu = torch.triu_indices(self.d, self.d, offset=1)
        P[iu[1], iu[0]] = P[iu[0], iu[1]]  # ok


if __name__ == "__main__":
    sig = torch.randn(2, 16)
    rec = haar_inverse_(haar_forward_(sig.clone()))
    print("haar round trip err", (rec - sig).abs().max().item())
    for cls in (KalmanFilter, KalmanFilterContig, KalmanFilterMirror):
        torch.manual_seed(1)
        kf = cls(3)
        for _ in range(5):
            kf.predict()
            kf.update(torch.randn(3))
        print(cls.__name__, "asymmetry", (kf.P - kf.P.T).abs().max().item())
