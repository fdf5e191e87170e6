"""Causal depthwise-conv decoding state (Mamba / Hyena style step function) updated with copy_/narrow.
conv_state: (batch, channels, width); the newest input goes to the last column."""
import torch
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

B, C, WIDTH = 2, 3, 4


def step_roll(conv_state, x, w):
    conv_state.copy_(torch.roll(conv_state, shifts=-1, dims=-1))  # ok
    conv_state[:, :, -1] = x
    return (conv_state * w).sum(-1)


def step_copy_left(conv_state, x, w):
    conv_state[:, :, :-1].copy_(conv_state[:, :, 1:])  # either: TEN403
    conv_state[:, :, -1] = x
    return (conv_state * w).sum(-1)


def step_newest_first(conv_state, x, w):
    """Same state but newest input in column 0 (kernel flipped)."""
    conv_state[:, :, 1:].copy_(conv_state[:, :, :-1])  # expect: TEN403
    conv_state[:, :, 0] = x
    return (conv_state * w.flip(-1)).sum(-1)


def step_narrow(conv_state, x, w):
    n = conv_state.size(-1)
    conv_state.narrow(-1, 1, n - 1).copy_(conv_state.narrow(-1, 0, n - 1))  # expect: TEN403
    conv_state.select(-1, 0).copy_(x)
    return (conv_state * w.flip(-1)).sum(-1)


def reference(xs, w):
    # xs: (B, C, T); depthwise causal conv with left padding
    return F.conv1d(F.pad(xs, (WIDTH - 1, 0)), w.unsqueeze(1), groups=C)


if __name__ == "__main__":
    w = torch.randn(C, WIDTH)
    xs = torch.randn(B, C, 6)
    ref = reference(xs, w)
    for fn in (step_roll, step_copy_left, step_newest_first, step_narrow):
        state = torch.zeros(B, C, WIDTH)
        ys = torch.stack([fn(state, xs[:, :, t], w) for t in range(xs.shape[-1])], -1)
        print(f"{fn.__name__:18s} max|step - conv1d| = {(ys - ref).abs().max().item():.6f}")
