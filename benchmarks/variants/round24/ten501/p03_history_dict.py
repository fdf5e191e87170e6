"""Keras-like history dict kept by a hand-written fit() function."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def fit(model, data, epochs=2, lr=0.05):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)
    history = defaultdict(list)
    metrics = {}
    metrics_fixed = {}
    step = 0
    for epoch in range(epochs):
        for x, y in data:
            logits = model(x)
            loss = F.cross_entropy(logits, y)
            opt.zero_grad()
            loss.backward()
            norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            opt.step()
            sched.step()
            history["train_loss"].append(loss)  # expect: TEN501
            history["lr"].append(sched.get_last_lr()[0])  # ok
            history.setdefault("grad_norm", []).append(norm)  # ok
            metrics[step] = loss  # expect: TEN501
            metrics_fixed[step] = float(loss)  # ok
            step += 1
    return history, metrics, metrics_fixed


if __name__ == "__main__":
    data = [(torch.randn(12, 6), torch.randint(0, 3, (12,))) for _ in range(4)]
    net = nn.Sequential(nn.Linear(6, 24), nn.GELU(), nn.Linear(24, 3))
    h, m, mf = fit(net, data)
    print(len(h["train_loss"]), float(h["grad_norm"][-1]), len(m), mf[0])
