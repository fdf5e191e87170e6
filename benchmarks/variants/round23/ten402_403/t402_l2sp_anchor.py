"""Fine-tuning with an L2-SP penalty that pulls weights toward their starting point."""
import torch
import torch.nn as nn


def finetune(model, anchors, steps=6, alpha=5.0):
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    x, y = torch.randn(20, 4), torch.randn(20, 1) * 3
    for _ in range(steps):
        task = nn.functional.mse_loss(model(x), y)
        penalty = sum(((p - a) ** 2).sum() for p, a in zip(model.parameters(), anchors))
        opt.zero_grad()
        (task + alpha * penalty).backward()
        opt.step()
    return sum(p.sum().item() for p in model.parameters())


torch.manual_seed(0)
model = nn.Linear(4, 1)
initial_params = [p for p in model.parameters()]  # expect: TEN402
torch.manual_seed(1)
print("finetuned (param list): %.6f" % finetune(model, initial_params))

torch.manual_seed(0)
model2 = nn.Linear(4, 1)
anchors = [p.detach().clone() for p in model2.parameters()]  # ok
torch.manual_seed(1)
print("finetuned (cloned anchors): %.6f" % finetune(model2, anchors))
