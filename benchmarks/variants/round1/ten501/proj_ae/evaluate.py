import torch

from steps import eval_batch


def evaluate(model, loader):
    model.eval()
    losses = []
    for batch in loader:
        losses.append(eval_batch(model, batch))  # ok
    return torch.stack(losses).mean()
