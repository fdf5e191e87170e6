"""Epoch metrics computed from logits, some still attached to the graph."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 4))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
acc_sum = 0.0
correct = 0.0
brier = 0.0
conf_log, conf_log_ok = [], []
for epoch in range(2):
    for b in range(3):
        x, y = torch.randn(8, 6), torch.randint(0, 4, (8,))
        logits = model(x)
        loss = F.cross_entropy(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        probs = logits.softmax(-1)
        acc_sum += probs.max(-1).values.mean()  # expect: TEN501
        correct += (logits.argmax(-1) == y).float().sum()  # ok
        onehot = F.one_hot(y, 4).float()
        brier += ((probs - onehot) ** 2).sum(-1).mean()  # expect: TEN501
        conf_log.append(torch.sigmoid(logits).mean())  # expect: TEN501
        conf_log_ok.append(torch.sigmoid(logits).mean().item())  # ok
print(float(acc_sum), float(correct), float(brier), len(conf_log), conf_log_ok[-1])
