import torch


def snapshot(model):
    """Detached copies of all trainable parameters, keyed by name."""
    return {n: p.detach().clone() for n, p in model.named_parameters() if p.requires_grad}  # ok


def params_of(model):
    """Trainable parameters keyed by name."""
    return {n: p for n, p in model.named_parameters() if p.requires_grad}


def parameter_change(model, reference):
    """L2 distance between the model's current parameters and ``reference``."""
    total = 0.0
    for n, p in model.named_parameters():
        if n in reference:
            total += (p.detach() - reference[n]).float().pow(2).sum().item()
    return total ** 0.5


@torch.no_grad()
def task_accuracy(model, loader, device, classes=None):
    """Accuracy on one task; ``classes`` restricts the logits to that task's label set."""
    model.eval()
    correct = total = 0
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        logits = model(x)
        if classes is not None:
            mask = torch.full_like(logits, float("-inf"))
            mask[:, classes] = 0.0
            logits = logits + mask
        correct += (logits.argmax(1) == y).sum().item()
        total += y.numel()
    return correct / max(total, 1)
