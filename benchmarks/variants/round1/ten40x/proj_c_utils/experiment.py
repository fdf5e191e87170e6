"""Search over fine-tuning rounds, keep the best round."""
import torch
import torch.nn as nn

from utils import evaluate, finetune_head, get_state, get_state_copy


def search(model, data, rounds=5):
    best_val = float("inf")
    best = None
    best_safe = None
    for r in range(rounds):
        finetune_head(model, data)
        val = evaluate(model, data)
        if val < best_val:
            best_val = val
            best = get_state(model)  # expect: TEN402
            best_safe = get_state_copy(model)  # ok: TEN402
    model.load_state_dict(best)
    return best_safe


def probe_then_tune(model, data):
    anchor = model.state_dict()  # expect: TEN402
    finetune_head(model, data)
    drift = sum((model.state_dict()[k] - anchor[k]).norm().item() for k in anchor)
    return drift


if __name__ == "__main__":
    d = [(torch.randn(8, 3), torch.randn(8, 1)) for _ in range(3)]
    search(nn.Linear(3, 1), d)
    print(probe_then_tune(nn.Linear(3, 1), d))
