"""One-shot magnitude pruning with in-place masking; report how many weights changed."""
import torch
import torch.nn as nn

torch.manual_seed(0)
layer = nn.Linear(8, 8)
layer2 = nn.Linear(8, 8)

before = layer.weight.data  # expect: TEN402
before2 = layer2.weight.data.clone()  # ok
before_count = int((layer.weight != 0).sum())  # ok

for lyr in (layer, layer2):
    w = lyr.weight.data
    thresh = w.abs().median()
    w.mul_((w.abs() > thresh).float())

print("entries changed (data ref):", int((before != layer.weight.data).sum()))
print("entries changed (clone):", int((before2 != layer2.weight.data).sum()))
print("nonzeros before/after:", before_count, int((layer.weight != 0).sum()))
