"""Module-level logs written from a step function."""
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

LOSS_LOG = []
STEP_TIMES = []
BEST = float("inf")


def train_step(model, opt, x, y):
    global BEST
    loss = F.l1_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    LOSS_LOG.append(loss)  # expect: TEN501
    STEP_TIMES.append(time.perf_counter())  # ok
    BEST = min(BEST, loss.item())  # ok
    return loss


def main():
    torch.manual_seed(0)
    model = nn.Linear(2, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(5):
        train_step(model, opt, torch.randn(3, 2), torch.randn(3, 2))
    print(len(LOSS_LOG), BEST, len(STEP_TIMES))


if __name__ == "__main__":
    main()
