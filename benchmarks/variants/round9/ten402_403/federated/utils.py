import torch


def get_weights(model):
    """Model weights as a plain name -> tensor dict."""
    return {k: v for k, v in model.state_dict().items()}


def set_weights(model, weights):
    model.load_state_dict(weights, strict=True)


def clone_weights(model):
    return {k: v.detach().clone() for k, v in model.state_dict().items()}  # ok


def weighted_average(updates):
    """FedAvg aggregation. ``updates`` is a list of (weights, num_samples)."""
    total = float(sum(n for _, n in updates))
    first = updates[0][0]
    out = {}
    for k, ref in first.items():
        if not ref.is_floating_point():
            # integer buffers such as BatchNorm's num_batches_tracked
            out[k] = ref.clone()
            continue
        acc = torch.zeros_like(ref, dtype=torch.float32)
        for w, n in updates:
            acc += w[k].float() * (n / total)
        out[k] = acc.to(ref.dtype)
    return out
