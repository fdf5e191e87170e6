"""Evaluation helpers that gather logits for metrics (AUC-like ranking, calibration)."""
import torch
import torch.nn as nn

torch.manual_seed(0)


def evaluate(model, loader):
    model.eval()
    all_logits, all_labels = [], []
    for x, y in loader:
        logits = model(x)
        all_logits.append(logits)  # expect: TEN501
        all_labels.append(y)  # ok
    logits = torch.cat(all_logits)
    labels = torch.cat(all_labels)
    return (logits.argmax(1) == labels).float().mean().item(), logits


@torch.no_grad()
def evaluate_fixed(model, loader):
    model.eval()
    all_logits, all_labels = [], []
    for x, y in loader:
        all_logits.append(model(x))  # ok
        all_labels.append(y)  # ok
    logits = torch.cat(all_logits)
    return (logits.argmax(1) == torch.cat(all_labels)).float().mean().item(), logits


def evaluate_probs(model, loader):
    probs = None
    for x, _ in loader:
        p = model(x).softmax(-1)
        probs = p if probs is None else torch.cat([probs, p])  # expect: TEN501
    return probs


model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Dropout(0.1), nn.Linear(16, 3))
loader = [(torch.randn(10, 6), torch.randint(0, 3, (10,))) for _ in range(5)]
acc, lg = evaluate(model, loader)
acc2, lg2 = evaluate_fixed(model, loader)
probs = evaluate_probs(model, loader)
print("acc", acc, acc2, "requires_grad", lg.requires_grad, lg2.requires_grad)
print("mean max prob", round(probs.max(-1).values.mean().item(), 4))
