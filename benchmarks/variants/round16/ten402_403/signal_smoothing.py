"""Two smoothing filters for multichannel signals plus an EMA of model weights."""
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


def two_tap_inplace(x, alpha=0.5):
    """y[t] = (1 - alpha) * x[t] + alpha * x[t - 1]  (FIR, not recursive)."""
    x[:, 1:].lerp_(x[:, :-1], alpha)  # expect: TEN403
    return x


def two_tap(x, alpha=0.5):
    x[:, 1:].lerp_(x[:, :-1].clone(), alpha)  # ok
    return x


def two_tap_functional(x, alpha=0.5):
    y = x.clone()
    y[:, 1:] = torch.lerp(x[:, 1:], x[:, :-1], alpha)  # ok
    return y


def pair_sum_inplace(x):
    """y[..., t] = x[..., t] + x[..., t - 1] for t >= 1."""
    x[..., 1:].add_(x[..., :-1])  # expect: TEN403
    return x


def pair_sum(x):
    x[..., 1:] = x[..., 1:] + x[..., :-1]  # ok
    return x


def recursive_ema(x, alpha=0.5):
    """y[t] = (1 - alpha) * x[t] + alpha * y[t - 1]  (IIR, recursion intended)."""
    for t in range(1, x.shape[1]):
        x[:, t].lerp_(x[:, t - 1], alpha)  # ok
    return x


class WeightEMA:
    def __init__(self, model, decay=0.9):
        self.decay = decay
        self.ema = copy.deepcopy(model)  # ok

    @torch.no_grad()
    def update(self, model):
        for pe, p in zip(self.ema.parameters(), model.parameters()):
            pe.lerp_(p, 1 - self.decay)  # ok


def main():
    sig = torch.randn(3, 40).cumsum(1)
    fir = two_tap(sig.clone())
    print("FIR in place == FIR:", torch.allclose(two_tap_inplace(sig.clone()), fir))
    print("FIR functional == FIR:", torch.allclose(two_tap_functional(sig), fir))
    print("pair sum in place == pair sum:", torch.allclose(pair_sum_inplace(sig.clone()), pair_sum(sig.clone())))
    iir = recursive_ema(sig.clone())
    print("FIR in place == IIR:", torch.allclose(two_tap_inplace(sig.clone()), iir))
    model = nn.Linear(4, 1)
    ema = WeightEMA(model)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(20):
        x = torch.randn(16, 4)
        opt.zero_grad()
        nn.functional.mse_loss(model(x), x.sum(1, keepdim=True)).backward()
        opt.step()
        ema.update(model)
    print("weights", model.weight.data.round(decimals=3), "ema", ema.ema.weight.data.round(decimals=3))


if __name__ == "__main__":
    main()
