import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(12, 24), nn.GELU(), nn.Linear(24, 4))
optim = torch.optim.AdamW(model.parameters(), lr=3e-3)
data = torch.randn(120, 12)
labels = torch.randint(0, 4, (120,))

all_logits = torch.empty(0, 4)
all_preds = torch.empty(0, dtype=torch.long)
all_probs = torch.empty(0, 4)
all_targets = torch.empty(0, dtype=torch.long)
loss_curve = torch.zeros(0)

for it, (xb, yb) in enumerate(zip(data.split(15), labels.split(15))):
    logits = model(xb)
    loss = F.cross_entropy(logits, yb)
    optim.zero_grad()
    loss.backward()
    optim.step()
    all_logits = torch.cat([all_logits, logits])  # expect: TEN501
    all_preds = torch.cat([all_preds, logits.argmax(1)])  # ok
    all_probs = torch.cat([all_probs, logits.softmax(1).detach()])  # ok
    all_targets = torch.cat([all_targets, yb])  # ok
    loss_curve = torch.cat((loss_curve, loss.view(1)))  # expect: TEN501

acc = (all_preds == all_targets).float().mean().item()
print("train acc over epoch:", round(acc, 4))
print("mean max prob:", all_probs.max(1).values.mean().item())
print("logit bank:", tuple(all_logits.shape))
