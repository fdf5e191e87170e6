"""Evaluation helpers: one forgets no_grad, the others do it right."""
import torch
import torch.nn as nn

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(5, 32), nn.ReLU(), nn.Linear(32, 3))
val = [(torch.randn(10, 5), torch.randint(0, 3, (10,))) for _ in range(6)]


def evaluate(model, loader):
    model.eval()
    outputs = torch.empty(0, 3)
    targets = []
    for x, y in loader:
        out = model(x)
        outputs = torch.cat([outputs, out])  # expect: TEN501
        targets.append(y)
    return outputs, torch.cat(targets)


@torch.no_grad()
def evaluate_decorated(model, loader):
    model.eval()
    outputs = torch.empty(0, 3)
    for x, _ in loader:
        out = model(x)
        outputs = torch.cat([outputs, out])  # ok
    return outputs


def evaluate_inference(model, loader):
    model.eval()
    scores = []
    with torch.inference_mode():
        for x, _ in loader:
            scores.append(model(x).softmax(-1))  # ok
    return torch.cat(scores)


def evaluate_loss(model, loader):
    total = 0
    for x, y in loader:
        total += nn.functional.cross_entropy(model(x), y)  # expect: TEN501
    return total / len(loader)


outs, tgts = evaluate(model, val)
print("acc", (outs.argmax(1) == tgts).float().mean().item())
print("same", torch.allclose(outs, evaluate_decorated(model, val)))
print("probs", evaluate_inference(model, val).sum().item())
print("loss", round(evaluate_loss(model, val).item(), 4))
