"""State-dict references that are fine: read before training moves, or copied."""
import copy
import io

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

encoder = nn.Linear(6, 6)
head = nn.Linear(6, 2)
for p in encoder.parameters():
    p.requires_grad_(False)

init_sd = head.state_dict()  # ok
n_head = sum(v.numel() for v in init_sd.values())
blob = io.BytesIO()
torch.save(head.state_dict(), blob)  # ok
frozen_enc = encoder.state_dict()  # ok
enc_before = {k: v.clone() for k, v in frozen_enc.items()}  # ok
mirror = nn.Linear(6, 2)
mirror.load_state_dict(head.state_dict())  # ok
teacher = copy.deepcopy(head)  # ok
trainable = list(head.parameters())  # ok

opt = torch.optim.SGD(trainable, lr=0.3)
x = torch.randn(80, 6)
y = (x[:, 0] > 0).long()
norms = []
for epoch in range(10):
    opt.zero_grad()
    nn.functional.cross_entropy(head(encoder(x)), y).backward()
    opt.step()
    current = head.state_dict()  # ok
    norms.append(round(current["weight"].norm().item(), 3))

final_sd = head.state_dict()  # ok
blob.seek(0)
reloaded = torch.load(blob)
print("head params:", n_head)
print("weight norms:", norms)
print("encoder unchanged:", torch.equal(frozen_enc["weight"], enc_before["weight"]))
print("serialised init differs from final:", not torch.equal(reloaded["weight"], final_sd["weight"]))
print("mirror differs from final:", not torch.equal(mirror.weight, head.weight))
print("teacher differs from final:", not torch.equal(teacher.weight, head.weight))
