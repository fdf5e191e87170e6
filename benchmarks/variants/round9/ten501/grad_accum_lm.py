"""Causal-LM fine-tuning with gradient accumulation and a multi-task variant."""
import itertools
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def train_accumulate_then_backward(model, loader, optimizer, scheduler, accum_steps,
                                   max_steps, device, log_every=20):
    """Sums the micro-batch losses and back-propagates once per optimizer step."""
    model.train()
    batches = itertools.cycle(loader)
    logged = 0.0
    for step in range(1, max_steps + 1):
        optimizer.zero_grad(set_to_none=True)
        accum_loss = 0.0
        micro_losses = []
        for _ in range(accum_steps):
            batch = {k: v.to(device) for k, v in next(batches).items()}
            loss = model(**batch).loss
            accum_loss = accum_loss + loss / accum_steps  # ok
            micro_losses.append(loss.detach())  # ok
        accum_loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        scheduler.step()

        logged += accum_loss.item()  # ok
        if step % log_every == 0:
            spread = torch.stack(micro_losses).std().item()
            print(f"step {step} loss {logged / log_every:.4f} ppl {math.exp(logged / log_every):.1f} "
                  f"micro-std {spread:.3f}")
            logged = 0.0


def train_backward_per_micro(model, loader, optimizer, scheduler, accum_steps, device):
    """Classic variant: backward every micro-batch, step every ``accum_steps``."""
    model.train()
    running = 0.0
    optimizer.zero_grad(set_to_none=True)
    for i, batch in enumerate(loader):
        batch = {k: v.to(device) for k, v in batch.items()}
        loss = model(**batch).loss / accum_steps
        loss.backward()
        running += loss.item()  # ok
        if (i + 1) % accum_steps == 0:
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad(set_to_none=True)
    return running * accum_steps / max(1, i + 1)


class MultiTaskHeads(nn.Module):
    def __init__(self, hidden, task_sizes):
        super().__init__()
        self.heads = nn.ModuleDict({name: nn.Linear(hidden, n) for name, n in task_sizes.items()})

    def forward(self, h):
        return {name: head(h) for name, head in self.heads.items()}


def multitask_step(encoder, heads, batch, optimizer, weights):
    h = encoder(batch["input_ids"], attention_mask=batch["attention_mask"]).last_hidden_state[:, 0]
    outs = heads(h)
    total = 0.0
    per_task = {}
    for name, logits in outs.items():
        task_loss = F.cross_entropy(logits, batch[name])
        total = total + weights[name] * task_loss  # ok
        per_task[name] = task_loss.item()  # ok
    optimizer.zero_grad()
    total.backward()
    optimizer.step()
    return per_task
