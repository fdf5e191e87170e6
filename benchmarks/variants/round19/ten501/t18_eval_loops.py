"""Validation loops: with and without no_grad / inference_mode."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def evaluate_leaky(model, loader):
    model.eval()
    all_logits, all_preds = [], []
    total = 0.0
    for x, y in loader:
        logits = model(x)
        all_logits.append(logits)  # expect: TEN501
        all_preds.append(logits.argmax(-1))  # ok
        total += F.cross_entropy(logits, y, reduction="sum")  # expect: TEN501
    model.train()
    return torch.cat(all_logits), torch.cat(all_preds), total


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    all_logits = []
    total = 0.0
    for x, y in loader:
        logits = model(x)
        all_logits.append(logits)  # ok
        total += F.cross_entropy(logits, y, reduction="sum")  # ok
    model.train()
    return torch.cat(all_logits), total


def evaluate_inference(model, loader):
    outs = []
    with torch.inference_mode():
        for x, _ in loader:
            outs.append(model(x).softmax(-1))  # ok
    return torch.cat(outs)


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = nn.Sequential(nn.Linear(5, 10), nn.ReLU(), nn.Dropout(0.1), nn.Linear(10, 3))
    loader = [(torch.randn(6, 5), torch.randint(0, 3, (6,))) for _ in range(4)]
    a, b, c = evaluate_leaky(model, loader)
    d, e = evaluate(model, loader)
    f = evaluate_inference(model, loader)
    print(a.shape, int(b.sum()), float(c), d.shape, float(e), float(f.sum()))


if __name__ == "__main__":
    main()
