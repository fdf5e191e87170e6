"""Module-level globals used as a poor man's experiment log."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

LOSS_LOG = []
GRAD_NORMS = []
RUNNING = 0.0
RUNNING_ITEM = 0.0
STEP = 0
BEST = {"loss": float("inf")}
LAST_BATCH = {}

model = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 2))
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)


def train_step(x, y):
    global RUNNING, RUNNING_ITEM, STEP
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    optimizer.zero_grad()
    loss.backward()
    gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    RUNNING += loss  # expect: TEN501
    RUNNING_ITEM += loss.item()  # ok
    STEP += 1  # ok
    LOSS_LOG.append(loss)  # expect: TEN501
    GRAD_NORMS.append(gn)  # ok
    LAST_BATCH["logits"] = logits  # either
    if loss.item() < BEST["loss"]:
        BEST["loss"] = loss.item()  # ok
        BEST["logits"] = logits.detach()  # ok


for _ in range(15):
    train_step(torch.randn(8, 8), torch.randint(0, 2, (8,)))

print("steps", STEP, "running", round(float(RUNNING) / STEP, 4), round(RUNNING_ITEM / STEP, 4))
print("log", len(LOSS_LOG), "gn", round(float(GRAD_NORMS[-1]), 4), "best", round(BEST["loss"], 4), tuple(BEST["logits"].shape))
print("last", tuple(LAST_BATCH["logits"].shape))
