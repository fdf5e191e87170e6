"""Prediction caches under inference_mode / set_grad_enabled vs. during training."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
enc = nn.Sequential(nn.Linear(6, 6), nn.ReLU())
head = nn.Linear(6, 2)
opt = torch.optim.SGD(list(enc.parameters()) + list(head.parameters()), lr=0.1)


@torch.inference_mode()
def predict(x):
    return head(enc(x)).softmax(-1)


preds, all_scores, train_preds, feats = [], [], [], []
for step in range(4):
    x, y = torch.randn(5, 6), torch.randint(0, 2, (5,))
    logits = head(enc(x))
    loss = F.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    train_preds.append(logits.softmax(-1))  # expect: TEN501
    with torch.inference_mode():
        preds.append(head(enc(x)))  # ok
    all_scores.append(predict(x))  # ok
    torch.set_grad_enabled(False)
    feats.append(enc(x))  # ok
    torch.set_grad_enabled(True)
print(len(train_preds), len(preds), len(all_scores), len(feats))
