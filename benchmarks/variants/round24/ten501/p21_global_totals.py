"""Script-level globals updated from a train_step() function."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

TOTAL_LOSS = 0.0
TOTAL_LOSS_F = 0.0
GLOBAL_STEP = 0
BEST = float("inf")
SEEN_LOGITS = []

model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 3))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)


def train_step(x, y):
    global TOTAL_LOSS, TOTAL_LOSS_F, GLOBAL_STEP, BEST
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    TOTAL_LOSS += loss  # expect: TEN501
    TOTAL_LOSS_F += loss.item()  # ok
    GLOBAL_STEP += 1  # ok
    BEST = min(BEST, loss.item())  # ok
    SEEN_LOGITS.append(logits.max(1).indices)  # ok
    return loss


for epoch in range(2):
    for _ in range(4):
        train_step(torch.randn(5, 4), torch.randint(0, 3, (5,)))
print(float(TOTAL_LOSS) / GLOBAL_STEP, TOTAL_LOSS_F / GLOBAL_STEP, BEST, len(SEEN_LOGITS))
