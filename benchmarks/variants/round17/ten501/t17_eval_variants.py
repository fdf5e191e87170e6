"""Three evaluation helpers."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


def batches(n_batches, bs=8):
    g = torch.Generator().manual_seed(1)
    for _ in range(n_batches):
        x = torch.randn(bs, 6, generator=g)
        yield x, (x[:, 0] > 0).long()


def evaluate(model, loader):
    model.eval()
    all_logits, preds, targets = [], [], []
    for x, y in loader:
        logits = model(x)
        all_logits.append(logits)  # expect: TEN501
        preds.append(logits.argmax(1))  # ok
        targets.append(y)  # ok
    model.train()
    return torch.cat(all_logits), torch.cat(preds), torch.cat(targets)


@torch.no_grad()
def evaluate_nograd(model, loader):
    model.eval()
    all_logits = []
    for x, y in loader:
        logits = model(x)
        all_logits.append(logits)  # ok
    return torch.cat(all_logits)


def evaluate_inference(model, loader):
    scores = []
    with torch.inference_mode():
        for x, y in loader:
            logits = model(x)
            scores.append(logits.softmax(-1)[:, 1])  # ok
    return torch.cat(scores)


model = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(5):
    x = torch.randn(16, 6)
    loss = nn.functional.cross_entropy(model(x), (x[:, 0] > 0).long())
    opt.zero_grad()
    loss.backward()
    opt.step()

logits, preds, targets = evaluate(model, batches(5))
print("acc", (preds == targets).float().mean().item())
print(evaluate_nograd(model, batches(5)).shape, evaluate_inference(model, batches(5)).shape)
