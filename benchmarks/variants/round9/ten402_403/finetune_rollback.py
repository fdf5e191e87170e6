"""Fine-tuning loop that rolls back to the last good point when the loss spikes,
plus a quick learning-rate range test."""
import copy
import math

import torch
import torch.nn.functional as F


def finetune(model, loader, optimizer, scheduler=None, spike_factor=4.0, refresh_every=250,
             ema_beta=0.98, max_rollbacks=5):
    ckpt = copy.copy(model.state_dict())  # expect: TEN402
    smooth = None
    rollbacks = 0
    model.train()
    for step, (x, y) in enumerate(loader, start=1):
        loss = F.cross_entropy(model(x), y)
        value = loss.item()
        if not math.isfinite(value) or (smooth is not None and value > spike_factor * smooth):
            rollbacks += 1
            if rollbacks > max_rollbacks:
                raise RuntimeError(f"loss spiked {rollbacks} times, last value {value:.3g}")
            model.load_state_dict(ckpt)
            optimizer.state.clear()
            for group in optimizer.param_groups:
                group["lr"] *= 0.5
            continue

        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        if scheduler is not None:
            scheduler.step()
        smooth = value if smooth is None else ema_beta * smooth + (1 - ema_beta) * value
        if step % refresh_every == 0:
            ckpt = copy.copy(model.state_dict())  # expect: TEN402
    return model, rollbacks


def lr_range_test(model, loader, make_optimizer, lrs, steps_per_lr=20):
    """Train a few steps at each learning rate from the same starting weights; return mean losses."""
    init = copy.deepcopy(model.state_dict())  # ok
    results = {}
    it = iter(loader)
    for lr in lrs:
        model.load_state_dict(init)
        opt = make_optimizer(model.parameters(), lr)
        model.train()
        losses = []
        for _ in range(steps_per_lr):
            try:
                x, y = next(it)
            except StopIteration:
                it = iter(loader)
                x, y = next(it)
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            losses.append(loss.item())
        results[lr] = sum(losses) / len(losses)
    model.load_state_dict(init)
    return results
