"""Newest-first history buffers (batch, T) updated in place; the source of the shift goes
through a tensor method first (detach / dtype / layout / decay)."""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)


def history_detach(h, x):
    """h: (batch, T) newest first; keep the history out of the autograd graph."""
    h[:, 1:] = h[:, :-1].detach()  # expect: TEN403
    h[:, 0] = x
    return h


def history_to(h, x):
    h[:, 1:] = h[:, :-1].to(h.dtype)  # expect: TEN403
    h[:, 0] = x
    return h


def history_view_as(h, x):
    dst = h[:, 1:]
    dst.copy_(h[:, :-1].view_as(dst))  # expect: TEN403
    h[:, 0] = x
    return h


def history_contiguous(h, x):
    h[:, 1:] = h[:, :-1].contiguous()  # either: TEN403
    h[:, 0] = x
    return h


def history_decay(h, x, gamma=0.5):
    h[:, 1:] = h[:, :-1] * gamma  # ok
    h[:, 0] = x
    return h


def history_to_double(h, x):
    h[:, 1:] = h[:, :-1].to(torch.float64)  # ok
    h[:, 0] = x
    return h


if __name__ == "__main__":
    for fn in (history_detach, history_to, history_view_as, history_contiguous, history_decay, history_to_double):
        h = torch.zeros(2, 5)
        for t in range(1, 7):
            h = fn(h, torch.tensor([float(t), -float(t)]))
        print(f"{fn.__name__:19s}: {h[0].tolist()}")
