import torch


def deltas_inplace(feats):
    """First-order deltas along time for (batch, time, dim) features."""
    tmaj = feats.transpose(0, 1)  # (time, batch, dim) view
    prev = torch.empty_like(feats)
    prev[:, 1:] = feats[:, :-1]  # ok
    prev[:, :1] = feats[:, :1]  # ok
    tmaj[1:] = tmaj[:-1]  # expect: TEN403
    return prev


def stack_context(feats, left):
    """Append `left` previous frames to every frame (batch, time, dim)."""
    B, T, D = feats.shape
    out = feats.new_zeros(B, T, D * (left + 1))
    out[..., :D] = feats  # ok
    for j in range(1, left + 1):
        out[:, j:, j * D:(j + 1) * D] = out[:, :-j, :D]  # ok
    return out
