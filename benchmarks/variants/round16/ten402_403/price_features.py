"""Per-asset features from a price matrix (assets x days), computed in place to save memory."""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)


def simulate(assets=5, days=30):
    steps = 0.01 * torch.randn(assets, days)
    return 100 * torch.exp(torch.cumsum(steps, dim=1))


def price_changes_inplace(prices):
    p = prices.clone()
    p[:, 1:].sub_(p[:, :-1])  # expect: TEN403
    p[:, 0] = 0.0  # ok
    return p


def price_changes(prices):
    d = torch.zeros_like(prices)
    d[:, 1:] = prices[:, 1:] - prices[:, :-1]  # ok
    return d


def price_changes_overwrite(prices):
    p = prices.clone()
    p[:, 1:] = p[:, 1:] - p[:, :-1]  # ok
    p[:, 0] = 0.0  # ok
    return p


def two_day_sum_inplace(changes):
    s = changes.clone()
    s[..., 1:] += s[..., :-1]  # expect: TEN403
    return s


def two_day_sum(changes):
    s = changes.clone()
    s[..., 1:] += s[..., :-1].clone()  # ok
    return s


def main():
    prices = simulate()
    ref = torch.diff(prices, dim=1, prepend=prices[:, :1])
    for fn in (price_changes_inplace, price_changes, price_changes_overwrite):
        print(f"{fn.__name__:24s} max error {(fn(prices) - ref).abs().max():.4f}")
    ch = price_changes(prices)
    want = ch.clone()
    want[:, 1:] = ch[:, 1:] + ch[:, :-1]  # ok
    for fn in (two_day_sum_inplace, two_day_sum):
        print(f"{fn.__name__:24s} max error {(fn(ch) - want).abs().max():.4f}")


if __name__ == "__main__":
    main()
