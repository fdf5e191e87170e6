import torch


def get_weights(model):
    return {k: v for k, v in model.state_dict().items()}


def set_weights(model, weights):
    model.load_state_dict(weights, strict=True)


def clone_weights(weights):
    return {k: v.detach().clone() for k, v in weights.items()}  # ok


def average_weights(weight_list, sizes):
    total = float(sum(sizes))
    avg = {}
    for key in weight_list[0]:
        ref = weight_list[0][key]
        acc = torch.zeros_like(ref, dtype=torch.float32)
        for w, n in zip(weight_list, sizes):
            acc += w[key].float() * (n / total)
        avg[key] = acc.to(ref.dtype)
    return avg
