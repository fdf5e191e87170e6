"""GPT-style pretraining loop with gradient accumulation."""
import math
import time

import torch
import torch.nn.functional as F


def get_lr(it, warmup_iters=200, lr_decay_iters=5000, max_lr=6e-4, min_lr=6e-5):
    if it < warmup_iters:
        return max_lr * (it + 1) / warmup_iters
    if it > lr_decay_iters:
        return min_lr
    ratio = (it - warmup_iters) / (lr_decay_iters - warmup_iters)
    return min_lr + 0.5 * (1.0 + math.cos(math.pi * ratio)) * (max_lr - min_lr)


def train(model, loader, optimizer, accum_steps=8, max_iters=5000, log_every=10, clip=1.0):
    model.train()
    epoch_loss = 0.0
    window = 0.0
    loss_accum = torch.zeros(())
    log = []
    it = 0
    t0 = time.time()
    optimizer.zero_grad(set_to_none=True)
    for micro_step, (x, y) in enumerate(loader):
        logits = model(x)
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), y.view(-1)) / accum_steps
        loss.backward()
        loss_accum += loss.detach()  # ok
        epoch_loss += loss  # expect: TEN501
        window = window + loss  # either
        if (micro_step + 1) % accum_steps != 0:
            continue
        for group in optimizer.param_groups:
            group["lr"] = get_lr(it)
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        if it % log_every == 0:
            dt = time.time() - t0
            log.append({"iter": it, "loss": loss_accum.item(), "dt": dt})  # ok
            print(f"iter {it}: loss {loss_accum.item():.4f}, window {float(window):.4f}, time {dt * 1000:.1f}ms")
        loss_accum.zero_()
        window = 0.0
        it += 1
        t0 = time.time()
        if it >= max_iters:
            break
    return log, epoch_loss


def train_microbatched(model, loader, optimizer, n_chunks=4):
    """Splits each batch into micro-batches that are summed before one backward."""
    history = []
    for x, y in loader:
        optimizer.zero_grad()
        step_loss = 0.0
        for xc, yc in zip(x.chunk(n_chunks), y.chunk(n_chunks)):
            step_loss = step_loss + F.cross_entropy(model(xc), yc) / n_chunks  # ok
        step_loss.backward()
        optimizer.step()
        history.append(step_loss.detach().item())  # ok
    return history
