"""Shifts written with tuple assignment: advancing paired key/value position buffers
and a token window where the shift and the new token are written in one statement."""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)


def advance_pair(pos_k, pos_v, new_k, new_v):
    """1-D paired buffers, newest first."""
    pos_k[1:], pos_v[1:] = pos_k[:-1], pos_v[:-1]  # expect: TEN403
    pos_k[0], pos_v[0] = new_k, new_v  # ok
    return pos_k, pos_v


def advance_pair_safe(pos_k, pos_v, new_k, new_v):
    pos_k[1:], pos_v[1:] = pos_k[:-1].clone(), pos_v[:-1].clone()  # ok
    pos_k[0], pos_v[0] = new_k, new_v
    return pos_k, pos_v


def push_tokens(window, tok):
    """window: (batch, L) newest token first; shift and insert in one statement."""
    window[:, 1:], window[:, 0] = window[:, :-1], tok  # expect: TEN403
    return window


def push_tokens_cat(window, tok):
    return torch.cat([tok.unsqueeze(1), window[:, :-1]], dim=1)  # ok


def swap_halves(x):
    """Non-overlapping halves swapped via clones."""
    h = x.shape[-1] // 2
    x[..., :h], x[..., h:] = x[..., h:].clone(), x[..., :h].clone()  # ok
    return x


if __name__ == "__main__":
    for fn in (advance_pair, advance_pair_safe):
        k, v = torch.zeros(5), torch.zeros(5)
        try:
            for t in range(1, 7):
                k, v = fn(k, v, float(t), float(-t))
            print(f"{fn.__name__:17s}: k={k.tolist()} v={v.tolist()}")
        except RuntimeError as e:
            print(f"{fn.__name__:17s}: RuntimeError: {str(e).split('.')[0]}")
    for fn in (push_tokens, push_tokens_cat):
        w = torch.zeros(2, 5, dtype=torch.long)
        for t in range(1, 7):
            w = fn(w, torch.tensor([t, 100 + t]))
        print(f"{fn.__name__:17s}: {w.tolist()}")
    print("swap_halves      :", swap_halves(torch.arange(6.0)).tolist())
