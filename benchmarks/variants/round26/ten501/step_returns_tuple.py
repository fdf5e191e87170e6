"""A step function returning (loss, logits); the caller keeps predictions for metrics."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def step(model, opt, x, y):
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss, logits


def collect_epoch(model, opt, batches):
    all_logits, all_preds, all_probs, losses = [], [], [], []
    for x, y in batches:
        loss, logits = step(model, opt, x, y)
        all_logits.append(logits)  # expect: TEN501
        all_preds.append(logits.argmax(1))  # ok
        all_probs.append(logits.softmax(1).detach())  # ok
        losses.append(loss.item())  # ok
    return all_logits, all_preds, all_probs, losses


model = nn.Sequential(nn.Linear(9, 18), nn.ReLU(), nn.Linear(18, 4))
opt = torch.optim.SGD(model.parameters(), lr=0.2)
xs = torch.randn(96, 9)
ys = xs[:, :4].argmax(1)
batches = [(xs[i:i + 12], ys[i:i + 12]) for i in range(0, 96, 12)]
logits, preds, probs, losses = collect_epoch(model, opt, batches)
acc = (torch.cat(preds) == ys).float().mean().item()
conf = torch.cat(probs).max(1).values.mean().item()
print(f"acc {acc:.3f} conf {conf:.3f} mean loss {sum(losses) / len(losses):.4f} logits {torch.cat(logits).shape}")
