"""fastai-style LR range test with an exponentially smoothed loss."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def find_lr(model, data, init_value=1e-5, final_value=1.0, beta=0.98, use_item=False):
    opt = torch.optim.SGD(model.parameters(), lr=init_value)
    num = len(data) - 1
    mult = (final_value / init_value) ** (1 / num)
    lr = init_value
    avg_loss, best_loss = 0.0, math.inf
    losses, log_lrs = [], []
    for batch_num, (x, y) in enumerate(data, start=1):
        opt.param_groups[0]["lr"] = lr
        loss = F.cross_entropy(model(x), y)
        if use_item:
            avg_loss = beta * avg_loss + (1 - beta) * loss.item()  # ok
        else:
            avg_loss = beta * avg_loss + (1 - beta) * loss  # expect: TEN501
        smoothed_loss = avg_loss / (1 - beta ** batch_num)
        if batch_num > 1 and smoothed_loss > 4 * best_loss:
            break
        if smoothed_loss < best_loss or batch_num == 1:
            best_loss = float(smoothed_loss)
        losses.append(smoothed_loss)  # expect: TEN501
        log_lrs.append(math.log10(lr))  # ok
        opt.zero_grad()
        loss.backward()
        opt.step()
        lr *= mult
    return log_lrs, losses


data = [(torch.randn(8, 6), torch.randint(0, 3, (8,))) for _ in range(8)]
for use_item in (False, True):
    lrs, ls = find_lr(nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 3)), data, use_item=use_item)
    print(use_item, len(lrs), float(ls[-1]))
