"""Delay lines and lagged features, with the lag held on objects or passed in."""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)


def delay(x, lag):
    """x: (batch, time). Delay every row by `lag` steps, zero-filling the start."""
    x[:, lag:] = x[:, :-lag]  # expect: TEN403
    x[:, :lag] = 0
    return x


def delay_safe(x, lag):
    x[:, lag:] = x[:, :-lag].clone()  # ok
    x[:, :lag] = 0
    return x


class CombFilter:
    def __init__(self, lag, gain):
        self.lag = lag
        self.gain = gain

    def delayed(self, x):
        y = x.clone()
        y[..., self.lag:] = y[..., :-self.lag]  # expect: TEN403
        y[..., :self.lag] = 0
        return y

    def __call__(self, x):
        return x + self.gain * self.delayed(x)


class LagFeatures:
    def __init__(self, cfg):
        self.cfg = cfg

    def build(self, series):
        """series: (batch, time, feat) -> lagged copy along time."""
        out = series.clone()
        out[:, self.cfg["lag"]:, :] = out[:, :-self.cfg["lag"], :]  # expect: TEN403
        return out

    def build_ok(self, series):
        out = series.clone()
        n = series.shape[1] - self.cfg["lag"]
        out[:, self.cfg["lag"]:, :] = series[:, :n, :]  # ok
        return out


sig = torch.randn(3, 32)
want = torch.cat([torch.zeros(3, 5), sig[:, :-5]], dim=1)
print("delay in place correct:", torch.equal(delay(sig.clone(), 5), want))
print("delay cloned correct:", torch.equal(delay_safe(sig.clone(), 5), want))

comb = CombFilter(lag=4, gain=0.5)
ref = sig + 0.5 * torch.cat([torch.zeros(3, 4), sig[:, :-4]], dim=1)
print("comb filter correct:", torch.allclose(comb(sig), ref))

lf = LagFeatures({"lag": 2})
series = torch.randn(2, 9, 3)
print("lag features in place == from source:", torch.equal(lf.build(series), lf.build_ok(series)))
