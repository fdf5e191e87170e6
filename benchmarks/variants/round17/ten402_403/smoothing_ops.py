"""Sequence smoothers and pairwise sums/differences built from in-place tensor ops."""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)


def lerp_neighbour(sig):
    sig = sig.clone()
    sig[:, 1:].lerp_(sig[:, :-1], 0.5)  # expect: TEN403
    return sig


def lerp_neighbour_fixed(sig):
    out = sig.clone()
    out[:, 1:].lerp_(sig[:, :-1], 0.5)  # ok
    return out


def cumulative_gain(gain):
    gain = gain.clone()
    gain[:, 1:].mul_(gain[:, :-1])  # expect: TEN403
    return gain


def cumulative_gain_fixed(gain):
    return torch.cumprod(gain, dim=1)  # ok


def second_order(acc, w):
    acc = acc.clone()
    acc[:, 2:].addcmul_(acc[:, :-2], w[:, 2:])  # expect: TEN403
    return acc


def second_order_fixed(acc, w):
    acc = acc.clone()
    acc[:, 2:].addcmul_(acc[:, :-2].clone(), w[:, 2:])  # ok
    acc.addcmul_(acc, w, value=0.0)  # ok
    return acc


def ratio_smooth(num, den):
    den = den.clone()
    den[:, 1:].addcdiv_(num[:, 1:], den[:, :-1], value=0.1)  # expect: TEN403
    return den


def ratio_smooth_fixed(num, den):
    prev = den[:, :-1].clone()  # ok
    den = den.clone()
    den[:, 1:].addcdiv_(num[:, 1:], prev, value=0.1)  # ok
    return den


def pair_sum_augmented(x):
    x = x.clone()
    x[:, 1:] += x[:, :-1]  # expect: TEN403
    return x


def pair_sum_rebuilt(x):
    x = x.clone()
    x[:, 1:] = x[:, 1:] + x[:, :-1]  # ok
    return x


def pair_sum_cloned(x):
    x = x.clone()
    x[:, 1:] += x[:, :-1].clone()  # ok
    return x


def first_diff_augmented(x):
    x = x.clone()
    x[:, 1:] -= x[:, :-1]  # expect: TEN403
    return x


def first_diff_reverse_loop(x):
    x = x.clone()
    for t in range(x.shape[1] - 1, 0, -1):
        x[:, t] -= x[:, t - 1]  # ok
    return x


def double_inplace(x):
    x = x.clone()
    x[:, 1:] += x[:, 1:]  # ok
    return x


VARIANTS = [pair_sum_augmented, pair_sum_rebuilt, pair_sum_cloned,
            first_diff_augmented, first_diff_reverse_loop, double_inplace]


TABLE = {
    "lerp": (lerp_neighbour, lerp_neighbour_fixed),
    "gain": (cumulative_gain, cumulative_gain_fixed),
}


def main():
    sig = torch.randn(2, 32).cumsum(1)
    gain = 1 + 0.1 * torch.rand(2, 32)
    w = torch.rand(2, 32)
    for name, (bad, good) in TABLE.items():
        arg = sig if name == "lerp" else gain
        print(name, round(bad(arg).sum().item(), 4), round(good(arg).sum().item(), 4))
    print("second", round(second_order(sig, w).sum().item(), 4), round(second_order_fixed(sig, w).sum().item(), 4))
    num = torch.rand(2, 32) + 0.5
    den = torch.rand(2, 32) + 1.0
    print("ratio", round(ratio_smooth(num, den).sum().item(), 4), round(ratio_smooth_fixed(num, den).sum().item(), 4))
    x = torch.randn(3, 40).cumsum(1)
    for fn in VARIANTS:
        print(f"{fn.__name__:>24}", round(fn(x).sum().item(), 4))


if __name__ == "__main__":
    main()
