"""train_step helpers return namedtuples; callers collect them."""
from collections import namedtuple

import torch
import torch.nn as nn
import torch.nn.functional as F

StepResult = namedtuple("StepResult", ["loss", "logits", "acc"])


def train_step(model, optimizer, x, y):
    optimizer.zero_grad()
    logits = model(x)
    loss = F.cross_entropy(logits, y)
    loss.backward()
    optimizer.step()
    acc = (logits.argmax(-1) == y).float().mean().item()
    return StepResult(loss, logits, acc)


def train_step_detached(model, optimizer, x, y):
    res = train_step(model, optimizer, x, y)
    return res._replace(loss=res.loss.detach(), logits=res.logits.detach())


def run(model, optimizer, batches, epochs=2):
    results, accs, logits_log = [], [], []
    safe_results, loss_values = [], []
    for _ in range(epochs):
        for x, y in batches[:2]:
            res = train_step(model, optimizer, x, y)
            results.append(res)  # expect: TEN501
            accs.append(res.acc)  # ok
            logits_log.append(res.logits.detach())  # ok
        for x, y in batches[2:]:
            res2 = train_step_detached(model, optimizer, x, y)
            safe_results.append(res2)  # ok
            loss_values.append(res2.loss.tolist())  # ok
    return results, accs, safe_results


if __name__ == "__main__":
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(9, 16), nn.SiLU(), nn.Linear(16, 3))
    opt = torch.optim.RMSprop(model.parameters(), lr=1e-2)
    batches = [(torch.randn(8, 9), torch.randint(0, 3, (8,))) for _ in range(4)]
    r, a, s = run(model, opt, batches)
    print(len(r), sum(a) / len(a), s[-1].loss)
