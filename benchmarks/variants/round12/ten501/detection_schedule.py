"""Detection-style training loop with warmup + cosine schedule (all logging is detached)."""
import math
from collections import defaultdict

import torch
from torch.optim.lr_scheduler import LambdaLR


def warmup_cosine(total_steps, warmup=500):
    def fn(step):
        if step < warmup:
            return (step + 1) / warmup
        progress = (step - warmup) / max(1, total_steps - warmup)
        return 0.5 * (1.0 + math.cos(math.pi * progress))
    return fn


def train(model, loader, optimizer, total_steps, warmup=500, log_every=20):
    sched = LambdaLR(optimizer, warmup_cosine(total_steps, warmup))
    log = defaultdict(list)
    ema = None
    for step, batch in enumerate(loader):
        out = model(**batch)
        loss_dict = out["losses"]
        loss = sum(loss_dict.values())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        sched.step()

        stats = {k: v.item() for k, v in loss_dict.items()}
        for k, v in stats.items():
            log[k].append(v)  # ok
        ema = loss.item() if ema is None else 0.95 * ema + 0.05 * loss.item()  # ok
        log["ema"].append(ema)  # ok
        log["lr"].append(sched.get_last_lr()[0])  # ok
        with torch.no_grad():
            log["pred_std"].append(out["logits"].std())  # ok
        if step % log_every == 0:
            print(f"step {step}: " + ", ".join(f"{k}={v:.3f}" for k, v in stats.items()))
        if step + 1 >= total_steps:
            break
    return log


def train_with_window(model, loader, optimizer, window=50):
    """Keeps a detached window of recent losses for a moving-average display."""
    recent = torch.zeros(window)
    total = torch.zeros(())
    for step, batch in enumerate(loader):
        out = model(**batch)
        loss = sum(out["losses"].values())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        recent[step % window] = loss.detach()  # ok
        total += loss.detach()  # ok
    return recent.mean().item(), total.item()
