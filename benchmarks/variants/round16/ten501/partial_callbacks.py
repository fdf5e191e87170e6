"""Step callbacks configured with functools.partial."""
from functools import partial

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def record_value(value, *, store, key):
    store.setdefault(key, []).append(value)


def record_float(value, *, store, key):
    store.setdefault(key, []).append(float(value))


def print_every(value, step, *, every, tag):
    if step % every == 0:
        print(f"[{tag}] step {step}: {float(value):.4f}")


def margin_of(logits, y):
    correct = logits.gather(1, y[:, None]).squeeze(1)
    other = logits.masked_fill(F.one_hot(y, logits.shape[1]).bool(), -1e9).amax(1)
    return (correct - other).mean()


metrics = {}
on_loss = partial(record_value, store=metrics, key="loss")
on_lr = partial(record_value, store=metrics, key="lr")
on_margin = partial(record_float, store=metrics, key="margin")
on_grad_norm = partial(record_value, store=metrics, key="grad_norm")
show = partial(print_every, every=5, tag="train")

model = nn.Sequential(nn.Linear(6, 24), nn.ReLU(), nn.Linear(24, 3))
optimizer = torch.optim.SGD(model.parameters(), lr=0.2)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=5, gamma=0.5)
X = torch.randn(240, 6)
Y = torch.bucketize(X[:, 0] + 0.5 * X[:, 1], torch.tensor([-0.5, 0.5]))

for step in range(15):
    idx = torch.randint(0, 240, (48,))
    logits = model(X[idx])
    loss = F.cross_entropy(logits, Y[idx])
    optimizer.zero_grad()
    loss.backward()
    grad_norm = nn.utils.clip_grad_norm_(model.parameters(), max_norm=5.0)
    optimizer.step()
    scheduler.step()

    on_loss(loss)  # expect: TEN501
    on_lr(scheduler.get_last_lr()[0])  # ok
    on_margin(margin_of(logits, Y[idx]))  # ok
    on_grad_norm(grad_norm)  # ok
    show(loss, step)  # ok

print({k: len(v) for k, v in metrics.items()})
