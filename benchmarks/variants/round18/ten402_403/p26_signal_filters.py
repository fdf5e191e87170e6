"""Pre-emphasis, first differences and a one-pole smoother on batched signals."""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)


def preemphasis_expr(x, coef=0.97):
    x = x.clone()
    x[:, 1:] -= coef * x[:, :-1]  # ok
    return x


def preemphasis_method(x, coef=0.97):
    y = x.clone()
    y[:, 1:].sub_(y[:, :-1], alpha=coef)  # expect: TEN403
    return y


def preemphasis_reference(x, coef=0.97):
    return torch.cat([x[:, :1], x[:, 1:] - coef * x[:, :-1]], dim=1)  # ok


def first_difference(x):
    d = x.clone()
    d[:, 1:] -= d[:, :-1]  # expect: TEN403
    return d


def first_difference_diff(x):
    return torch.diff(x, dim=1, prepend=x[:, :1] * 0)  # ok


def deemphasis(x, coef=0.97):
    """Recursive inverse filter; the loop over time is intentional."""
    y = x.clone()
    for t in range(1, y.shape[1]):
        y[:, t] += coef * y[:, t - 1]  # ok
    return y


def one_pole(x, a=0.6):
    y = torch.empty_like(x)
    y[:, 0] = x[:, 0]  # ok
    for t in range(1, x.shape[1]):
        y[:, t] = a * y[:, t - 1] + (1 - a) * x[:, t]  # ok
    return y


if __name__ == "__main__":
    sig = torch.randn(4, 40)
    ref = preemphasis_reference(sig)
    print("expr    vs ref", (preemphasis_expr(sig) - ref).abs().max().item())
    print("method  vs ref", (preemphasis_method(sig) - ref).abs().max().item())
    print("diff    vs ref", (first_difference(sig) - first_difference_diff(sig)).abs().max().item())
    print("round trip    ", (deemphasis(preemphasis_expr(sig)) - sig).abs().max().item())
    print("one pole mean ", one_pole(sig).mean().item())
