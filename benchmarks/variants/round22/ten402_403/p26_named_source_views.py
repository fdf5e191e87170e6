"""Shifts where the source slice is bound to a name before the write."""
import torch

torch.manual_seed(0)


def lagged_features(x, lags):
    """x: (batch, time). Appends lagged copies, shifting a working buffer in place."""
    work = x.clone()
    feats = [x.clone()]
    for _ in range(lags):
        older = work[:, :-1]
        work[:, 1:] = older  # expect: TEN403
        work[:, 0] = 0.0
        feats.append(work.clone())
    return torch.stack(feats, -1)


def lagged_features_safe(x, lags):
    work = x.clone()
    feats = [x.clone()]
    for _ in range(lags):
        older = work[:, :-1].clone()
        work[:, 1:] = older  # ok
        work[:, 0] = 0.0
        feats.append(work.clone())
    return torch.stack(feats, -1)


def smooth_then_shift(state):
    prev = state[:, :-1]
    prev = torch.tanh(prev)  # rebinding: prev is a new tensor now
    state[:, 1:] = prev  # ok
    return state


def shift_via_alias(seq):
    buf = seq  # same tensor under another name
    buf[:, 2:] = seq[:, :-2]  # expect: TEN403
    return seq


def shift_via_view(seq):
    flat = seq.view(-1)
    tail = flat[:-1]
    flat[1:] = tail  # expect: TEN403
    return seq


def shift_into_copy(seq):
    out = seq.clone()
    out[:, 2:] = seq[:, :-2]  # ok
    return out


x = torch.arange(1.0, 7.0).repeat(2, 1)
print("lagged     :", lagged_features(x, 2)[0].T.tolist())
print("lagged safe:", lagged_features_safe(x, 2)[0].T.tolist())
print("tanh shift :", [round(v, 4) for v in smooth_then_shift(torch.linspace(-1, 1, 12).view(2, 6))[0].tolist()])
print("alias shift:", shift_via_alias(torch.arange(12.0).view(2, 6))[1].tolist())
print("copy shift :", shift_into_copy(torch.arange(12.0).view(2, 6))[1].tolist())
try:
    print("view shift :", shift_via_view(torch.arange(8.0).view(2, 4)).tolist())
except RuntimeError as err:
    print("view shift failed:", str(err).split(".")[0])
