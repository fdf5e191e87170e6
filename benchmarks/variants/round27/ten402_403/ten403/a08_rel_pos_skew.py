"""Relative-position 'skew' (Music Transformer) done two ways."""
import torch

torch.manual_seed(0)


def skew_reference(rel):
    # rel: (B, L, L) logits indexed by relative distance
    B, L, _ = rel.shape
    padded = torch.cat([torch.zeros(B, L, 1), rel], dim=2)
    out = padded.view(B, L + 1, L)[:, 1:]
    result = torch.empty(B, L, L)
    result[...] = out  # ok
    return result


def skew_inplace(rel):
    B, L, _ = rel.shape
    buf = torch.zeros(B, L, L + 1)
    buf[:, :, 1:] = rel  # ok
    flat = buf.view(B, -1)
    flat[:, :-1] = flat[:, 1:]  # expect: TEN403
    flat[:, L:] = flat[:, : flat.shape[1] - L]  # expect: TEN403
    return buf[:, :, :L]


rel = torch.randn(2, 4, 4)
a, b = skew_reference(rel), skew_inplace(rel)
print("reference", [round(v, 4) for v in a[0].flatten().tolist()])
print("in-place ", [round(v, 4) for v in b[0].flatten().tolist()])
