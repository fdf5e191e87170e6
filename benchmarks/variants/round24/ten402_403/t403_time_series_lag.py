"""Lag features for a sequence model: previous-step inputs concatenated to the current ones."""
import torch
import torch.nn as nn

torch.manual_seed(0)


def add_lag_inplace(feats):
    """feats: (B, T, F). Writes lag-1 features into the second half of the channels."""
    f = feats.shape[-1] // 2
    feats[:, 1:, f:] = feats[:, :-1, :f]  # ok
    feats[:, 0, f:] = 0
    return feats


def lag_all_inplace(feats):
    feats[:, 1:, :] = feats[:, :-1, :]  # expect: TEN403
    feats[:, 0, :] = 0
    return feats


def lag_all(feats):
    lagged = torch.zeros_like(feats)
    lagged[:, 1:] = feats[:, :-1]  # ok
    return lagged


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(2, 6, 4)
    rnn = nn.GRU(4, 5, batch_first=True)
    with torch.no_grad():
        for fn in (add_lag_inplace, lag_all_inplace, lag_all):
            inp = x.clone()
            if fn is add_lag_inplace:
                inp[..., 2:] = 0
            out, h = rnn(fn(inp))
            print(fn.__name__, f"{out.sum().item():.6f} {h.abs().sum().item():.6f}")
