"""Evaluation helpers called from the training loop, some without no_grad."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def evaluate(model, loader):
    model.eval()                       # eval() does not switch autograd off
    total = 0.0
    for x, y in loader:
        total = total + F.cross_entropy(model(x), y, reduction="sum")  # expect: TEN501
    model.train()
    return total / sum(len(y) for _, y in loader)


@torch.no_grad()
def evaluate_nograd(model, loader):
    model.eval()
    total = 0.0
    for x, y in loader:
        total = total + F.cross_entropy(model(x), y, reduction="sum")  # ok
    model.train()
    return total / sum(len(y) for _, y in loader)


def predict_scores(model, loader):
    model.eval()
    scores = []
    for x, _ in loader:
        scores.append(model(x).softmax(-1))  # expect: TEN501
    model.train()
    return torch.cat(scores)


def predict_labels(model, loader):
    labels = []
    for x, _ in loader:
        labels.append(model(x).argmax(-1))  # ok
    return torch.cat(labels)


def evaluate_inference(model, loader):
    with torch.inference_mode():
        return torch.stack([F.cross_entropy(model(x), y) for x, y in loader]).mean()


model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Dropout(0.2), nn.Linear(16, 3))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
train = [(torch.randn(16, 6), torch.randint(0, 3, (16,))) for _ in range(4)]
val = [(torch.randn(16, 6), torch.randint(0, 3, (16,))) for _ in range(3)]

val_history = []
val_history_ok = []
inference_hist = []
score_bank = []
for epoch in range(4):
    for x, y in train:
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    val_history.append(evaluate(model, val))  # expect: TEN501
    val_history_ok.append(evaluate_nograd(model, val))  # ok
    inference_hist.append(evaluate_inference(model, val))  # ok
    score_bank.append(predict_scores(model, val))  # expect: TEN501

print("val", [round(float(v), 4) for v in val_history])
print("val ok", [round(float(v), 4) for v in val_history_ok], round(float(inference_hist[-1]), 4))
print("scores", tuple(torch.stack(score_bank).shape), predict_labels(model, val).bincount(minlength=3).tolist())
