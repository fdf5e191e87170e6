"""Test-time augmentation over a small ensemble; submission probabilities collected per batch."""
import torch
import torch.nn as nn

torch.manual_seed(0)
models = [nn.Sequential(nn.Linear(6, 10), nn.ReLU(), nn.Linear(10, 2)) for _ in range(3)]
test_loader = [torch.randn(4, 6) for _ in range(4)]


def tta_views(x):
    return [x, x.flip(1), x + 0.01]


def predict(models, loader, grad_free):
    all_probs = []
    for m in models:
        m.eval()
    for x in loader:
        ensemble_logits = 0
        for m in models:
            for view in tta_views(x):
                ensemble_logits = ensemble_logits + m(view)  # ok
        probs = (ensemble_logits / 9).softmax(-1)
        if grad_free:
            all_probs.append(probs.detach())  # ok
        else:
            all_probs.append(probs)  # expect: TEN501
    return torch.cat(all_probs)


p1 = predict(models, test_loader, grad_free=False)
with torch.no_grad():
    p2 = predict(models, test_loader, grad_free=False)
p3 = predict(models, test_loader, grad_free=True)
print(p1.requires_grad, p2.requires_grad, p3.requires_grad, torch.allclose(p1, p3))
