# Quick exploration script: collect predictions of a randomly initialised net
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))
inputs = torch.randn(40, 4)

preds = torch.empty(0, 2)
for chunk in inputs.split(8):
    preds = torch.cat((preds, model(chunk)))  # expect: TEN501

print(preds.shape)

features = torch.empty(0, 16)
with torch.no_grad():
    for chunk in inputs.split(8):
        features = torch.cat([features, model[1](model[0](chunk))], dim=0)  # ok

print(features.shape)
