"""Lagged copies of multivariate series for a linear autoregressive model."""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)

ALIGN_SHIFT = 0


def lag_inplace(series, k):
    y = series.clone()
    y[..., k:] = y[..., :-k]  # expect: TEN403
    y[..., :k] = 0.0  # ok
    return y


def lag_fresh(series, k):
    y = torch.zeros_like(series)
    y[..., k:] = series[..., :-k]  # ok
    return y


def realign(series, shift):
    T = series.shape[-1]
    series[..., shift:] = series[..., :T - shift]  # either
    return series


def design_matrix(series, lags, lag_fn):
    cols = [lag_fn(series, k) for k in lags]
    return torch.stack(cols, -1)


def main():
    B, F, T = 4, 3, 50
    t = torch.arange(T, dtype=torch.float32)
    series = torch.sin(t / 4 + torch.arange(B * F).view(B, F, 1)) + 0.05 * torch.randn(B, F, T)
    calm = realign(series.clone(), ALIGN_SHIFT)
    s = series[..., ALIGN_SHIFT:]
    s[..., :] = series[..., :T - ALIGN_SHIFT]  # ok
    late = realign(series.clone(), 2)
    for lag_fn in (lag_inplace, lag_fresh):
        X = design_matrix(series, (1, 2, 5), lag_fn)[..., 5:, :].reshape(-1, 3)
        y = series[..., 5:].reshape(-1, 1)
        coef = torch.linalg.lstsq(X, y).solution
        print(lag_fn.__name__, [round(c, 4) for c in coef.flatten().tolist()])
    print("realign checksums", round(calm.sum().item(), 3), round(late.sum().item(), 3))


if __name__ == "__main__":
    main()
