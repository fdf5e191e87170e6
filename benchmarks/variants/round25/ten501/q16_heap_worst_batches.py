import heapq

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

K = 20
model = nn.Linear(7, 3)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
worst = []
worst_ok = []
seen_steps = []
hard_examples = []

for step in range(15):
    x = torch.randn(12, 7)
    y = torch.randint(0, 3, (12,))
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if len(worst) < K:
        heapq.heappush(worst, (loss, step))  # expect: TEN501
    else:
        heapq.heappushpop(worst, (loss, step))
    heapq.heappush(worst_ok, (loss.item(), step))  # ok
    heapq.heappush(seen_steps, -step)  # ok
    heapq.heappush(hard_examples, (-loss.item(), step, logits))  # expect: TEN501

top3 = heapq.nlargest(3, worst_ok)
print("hardest steps:", [(round(l, 3), s) for l, s in top3])
print("heap size:", len(worst), "min kept:", round(float(worst[0][0]), 4), -seen_steps[0])
