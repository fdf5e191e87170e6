"""Batch prediction script with test-time augmentation (script level, no backward)."""
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Conv1d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(8, 5))
model.eval()
augs = [lambda t: t, lambda t: t.flip(-1), lambda t: t * 0.9]
dataset = [torch.randn(4, 3, 32) for _ in range(5)]

tta_outputs = []
scores = torch.empty(len(dataset), 4, 5)
embeddings = {}
for i, x in enumerate(dataset):
    logits = torch.stack([model(aug(x)) for aug in augs]).mean(0)
    tta_outputs.append(logits.softmax(-1))  # expect: TEN501
    scores[i] = logits  # expect: TEN501
    embeddings[f"batch_{i}"] = model[:4](x)  # expect: TEN501

print("tta grad_fn:", tta_outputs[0].grad_fn, "scores:", scores.grad_fn, "emb:", embeddings["batch_0"].grad_fn)

clean = []
with torch.no_grad():
    for x in dataset:
        clean.append(torch.stack([model(aug(x)) for aug in augs]).mean(0))  # ok

with torch.inference_mode():
    preds = torch.cat([model(x).argmax(-1) for x in dataset])
labels_out = []
for x in dataset:
    labels_out.append(model(x).argmax(-1))  # ok
print(clean[0].grad_fn, preds.shape, labels_out[0].grad_fn)
