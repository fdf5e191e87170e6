"""Assorted sequence ops: delay embeddings, masks, and look-alikes that are fine."""
import numpy as np
import torch
import torch.nn as nn


class DelayEmbedding(nn.Module):
    def __init__(self, taps):
        super().__init__()
        self.taps = taps

    def forward(self, x):
        out = x.new_zeros(x.shape[0], self.taps, x.shape[1])
        out[:, 0] = x
        for t in range(1, self.taps):
            out[:, t, 1:] = out[:, t - 1, :-1]  # ok: TEN403
        return out


def causal_mask_shift(mask: torch.Tensor):
    """Shift a (batch, seq) attention mask right by one, keeping dtype."""
    mask[:, 1:] = mask[:, :-1].detach()  # expect: TEN403
    return mask


def shift_dtype_noop(x: torch.Tensor):
    x[:, 1:] = x[:, :-1].to(x.dtype)  # expect: TEN403
    return x


def shift_float_noop(x: torch.Tensor):
    x = x.float()
    x[:, :-1] = x[:, 1:].float()  # expect: TEN403
    return x


def shift_labels_for_lm(labels: torch.Tensor, pad_id: int):
    shifted = labels.new_full(labels.shape, pad_id)
    shifted[:, :-1] = labels[:, 1:]  # ok: TEN403
    return shifted


def shift_numpy(arr: np.ndarray):
    arr[:, 1:] = arr[:, :-1]  # ok: TEN403
    return arr


def shift_list_rows(rows):
    rows[1:] = rows[:-1]  # ok: TEN403
    return rows


def shift_scaled(x: torch.Tensor):
    x[:, 1:] = x[:, :-1] * 0.5  # ok: TEN403
    return x


def shift_by_zero_pad(x: torch.Tensor):
    return nn.functional.pad(x[:, :-1], (1, 0))  # ok: TEN403


def shift_index_select(x: torch.Tensor):
    idx = torch.arange(x.shape[1] - 1)
    x[:, 1:] = x[:, idx]  # ok: TEN403
    return x


def ema_over_time(x: torch.Tensor, alpha: float = 0.9):
    """Intended recursive EMA, written as a vectorised in-place update."""
    x[:, 1:].mul_(1 - alpha).add_(x[:, :-1], alpha=alpha)  # either: TEN403
    return x


def guarded(x):
    if isinstance(x, torch.Tensor):
        x[:, 1:] = x[:, :-1]  # expect: TEN403
    return x


if __name__ == "__main__":
    a = torch.arange(10.0).reshape(2, 5)
    print(DelayEmbedding(3)(a))
    print(causal_mask_shift(torch.ones(2, 5, dtype=torch.long).cumsum(1)))
    print(shift_dtype_noop(a.clone()), shift_float_noop(a.clone()))
    print(shift_labels_for_lm(a.long(), -100), shift_numpy(a.numpy().copy()), shift_list_rows([1, 2, 3]))
    print(shift_scaled(a.clone()), shift_by_zero_pad(a), shift_index_select(a.clone()), guarded(a.clone()))
