"""Temporal smoothing of per-frame predictions (lerp / gated updates)."""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)


def smooth_inplace(pred, w=0.5):
    y = pred.clone()
    y[:, 1:].lerp_(y[:, :-1], w)  # expect: TEN403
    return y


def smooth_pairwise(pred, w=0.5):
    return torch.cat([pred[:, :1], torch.lerp(pred[:, 1:], pred[:, :-1], w)], 1)  # ok


def smooth_from_copy(pred, w=0.5):
    y = pred.clone()
    prev = pred[:, :-1]
    y[:, 1:].lerp_(prev, w)  # ok
    return y


def gated_carry(h, gate):
    out = h.clone()
    out[:, 1:].addcmul_(out[:, :-1], gate[:, 1:], value=0.5)  # expect: TEN403
    return out


def gated_carry_ref(h, gate):
    out = h.clone()
    out[:, 1:] = h[:, 1:] + 0.5 * h[:, :-1] * gate[:, 1:]  # ok
    return out


def recursive_ema(pred, w=0.5):
    y = pred.clone()
    for t in range(1, y.shape[1]):
        y[:, t].lerp_(y[:, t - 1], w)  # ok
    return y


if __name__ == "__main__":
    pred = torch.randn(4, 33)
    gate = torch.rand(4, 33)
    print("lerp in-place vs pairwise", (smooth_inplace(pred) - smooth_pairwise(pred)).abs().max().item())
    print("lerp from copy vs pairwise", (smooth_from_copy(pred) - smooth_pairwise(pred)).abs().max().item())
    print("addcmul in-place vs ref  ", (gated_carry(pred, gate) - gated_carry_ref(pred, gate)).abs().max().item())
    print("recursive ema last frame ", recursive_ema(pred)[:, -1].tolist())
