"""Source expressions that look like copies but may return the same memory."""
import torch

torch.manual_seed(0)


def via_contiguous_1d(x):
    x[1:] = x[:-1].contiguous()  # expect: TEN403
    return x


def via_contiguous_2d(m):
    m[:, 1:] = m[:, :-1].contiguous()  # ok
    return m


def via_detach(x):
    x[1:] = x[:-1].detach()  # expect: TEN403
    return x


def via_reshape(m):
    m[:, 1:] = m[:, :-1].reshape(m.shape[0], -1)  # expect: TEN403
    return m


def via_reshape_rows(m):
    m[1:] = m[:-1].reshape(-1, m.shape[1])  # expect: TEN403
    return m


def via_flatten_roundtrip(m):
    m[:, 1:] = m[:, :-1].flatten().view(m.shape[0], -1)  # ok
    return m


def via_arith(x):
    x[1:] = x[:-1] * 1  # ok
    return x


def via_to_same_dtype(x):
    x[1:] = x[:-1].to(torch.float32)  # expect: TEN403
    return x


def via_double(x):
    x[1:] = x[:-1].double()  # ok
    return x


def via_data(m):
    m.data[:, 1:] = m.data[:, :-1]  # expect: TEN403
    return m


if __name__ == "__main__":
    vec = torch.randn(12)
    mat = torch.randn(3, 9)
    cases = [(via_contiguous_1d, vec), (via_contiguous_2d, mat), (via_detach, vec), (via_reshape, mat),
             (via_reshape_rows, mat), (via_flatten_roundtrip, mat), (via_arith, vec), (via_to_same_dtype, vec), (via_double, vec),
             (via_data, mat)]
    for fn, arg in cases:
        try:
            out = fn(arg.clone())
            print(fn.__name__, f"{out.sum().item():.5f}", [round(v, 4) for v in out.reshape(-1)[:6].tolist()])
        except RuntimeError as e:
            print(fn.__name__, "RuntimeError:", str(e)[:60])
