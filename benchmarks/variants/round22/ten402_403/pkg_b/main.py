"""Run from the set root: python -m pkg_b.main"""
import torch

from . import shifting
from .buffers import LagFeatures, MelStream, PingPong, TapDelay, TokenHistory

torch.manual_seed(0)


def attempt(label, fn):
    try:
        out = fn()
        print(f"{label:<14}", out.tolist() if torch.is_tensor(out) else out)
    except RuntimeError as err:
        print(f"{label:<14} failed:", str(err).split(".")[0])


def mel():
    ms = MelStream(5, 2)
    for t in range(1, 5):
        out = ms.push(torch.full((2, 2), float(t)))
    return out[:, 0]


def taps():
    td = TapDelay(2, 5)
    for t in range(1, 7):
        out = td.push(torch.tensor([float(t), -float(t)]))
    return out


def lags(safe):
    def run():
        lf = LagFeatures(2, 7, 2, safe)
        for t in range(1, 5):
            out = lf.push(torch.tensor([float(t), 10.0 * t]))
        return out
    return run


def pingpong():
    pp = PingPong(1, 5)
    for t in range(1, 7):
        out = pp.push(torch.tensor([float(t)]))
    return out


def tokens():
    th = TokenHistory(2, 5)
    for t in torch.randint(2, 30, (6, 2)):
        out = th.push(t)
    return out


attempt("mel stream", mel)
attempt("tap delay", taps)
attempt("lags", lags(False))
attempt("lags (safe)", lags(True))
attempt("rolled", lambda: shifting.delayed(torch.arange(1.0, 9.0).view(2, 4), 1))
attempt("ping-pong", pingpong)
attempt("token history", tokens)
