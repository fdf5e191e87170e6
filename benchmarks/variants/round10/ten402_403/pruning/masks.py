import torch


def prunable(model):
    return [(n, p) for n, p in model.named_parameters() if p.dim() in (2, 4)]


@torch.no_grad()
def global_magnitude_masks(model, masks, rate):
    """Remove the `rate` fraction of the smallest surviving weights, ranked globally."""
    params = prunable(model)
    if masks is None:
        masks = {n: torch.ones_like(p, dtype=torch.bool) for n, p in params}
    scores = torch.cat([p.abs()[masks[n]] for n, p in params])
    k = int(rate * scores.numel())
    if k == 0:
        return masks
    thresh = torch.kthvalue(scores.float().cpu(), k).values.to(scores.device)
    return {n: masks[n] & (p.abs() > thresh) for n, p in params}


@torch.no_grad()
def apply_masks(model, masks):
    for n, p in model.named_parameters():
        if n in masks:
            p.mul_(masks[n])


def sparsity(masks):
    total = sum(m.numel() for m in masks.values())
    kept = sum(int(m.sum()) for m in masks.values())
    return 1.0 - kept / max(total, 1)
