"""In-place jitter augmentations on (B, C, L) signals."""
import torch


def jitter_(sig, s):
    sig[..., s:] = sig[..., :-s]  # expect: TEN403
    return sig


def advance_(sig, s):
    sig[..., :-s].copy_(sig[..., s:])  # expect: TEN403
    return sig


def mix_(dst, src, lam):
    dst[..., :] = lam * dst + (1 - lam) * src  # ok
    return dst


def swap_halves_(sig):
    L = sig.shape[-1] // 2
    sig[..., :L], sig[..., L:] = sig[..., L:].clone(), sig[..., :L].clone()  # ok
    return sig
