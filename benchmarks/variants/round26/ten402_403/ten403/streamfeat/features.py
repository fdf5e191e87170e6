import torch


def pre_emphasis(x, coef=0.97):
    y = x.clone()
    y[:, 1:] -= coef * y[:, :-1]  # ok
    return y


def pre_emphasis_inplace(x, coef=0.97):
    x[:, 1:].sub_(x[:, :-1], alpha=coef)  # expect: TEN403
    return x


def deltas(feats):
    return feats[..., 1:] - feats[..., :-1]  # ok


def deltas_inplace(feats):
    feats[..., 1:] -= feats[..., :-1]  # expect: TEN403
    return feats[..., 1:]


def frame_energy(x, frame=20):
    b, n = x.shape
    return x[:, : n // frame * frame].reshape(b, -1, frame).pow(2).mean(-1)
