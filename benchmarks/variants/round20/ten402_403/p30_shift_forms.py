"""Different spellings of the same one-step shift on a (batch, time) tensor."""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)

base = torch.randn(4, 10)
expected = base.clone()
expected[:, 1:] = base[:, :-1]  # ok
expected[:, 0] = 0.0


def via_tuple(x, count):
    x[:, 1:], count = x[:, :-1], count + 1  # expect: TEN403
    x[:, 0] = 0.0
    return x, count


def via_copy(x):
    x[:, 1:].copy_(x[:, :-1])  # expect: TEN403
    x[:, 0] = 0.0
    return x


def via_temp(x):
    tmp = x[:, :-1]
    x[:, 1:] = tmp  # expect: TEN403
    x[:, 0] = 0.0
    return x


def via_temp_clone(x):
    tmp = x[:, :-1].clone()
    x[:, 1:] = tmp  # ok
    x[:, 0] = 0.0
    return x


def via_copy_clone(x):
    x[:, 1:].copy_(x[:, :-1].clone())  # ok
    x[:, 0] = 0.0
    return x


def via_pair(x, y):
    x[:, 1:], y[:, 1:] = x[:, :-1].clone(), y[:, :-1].clone()  # ok
    x[:, 0] = 0.0
    return x


def via_narrow(x):
    x.narrow(1, 1, x.shape[1] - 1).copy_(x.narrow(1, 0, x.shape[1] - 1))  # either
    x[:, 0] = 0.0
    return x


results = {
    "tuple": via_tuple(base.clone(), 0)[0],
    "copy_": via_copy(base.clone()),
    "temp": via_temp(base.clone()),
    "narrow": via_narrow(base.clone()),
    "temp_clone": via_temp_clone(base.clone()),
    "copy_clone": via_copy_clone(base.clone()),
    "pair_clone": via_pair(base.clone(), base.clone()),
}
for name, out in results.items():
    print(f"{name:11s} correct={torch.equal(out, expected)}")
