import math
import os
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from model import GPT, GPTConfig

out_dir = "out-owt"
data_dir = os.path.join("data", "openwebtext")
batch_size = 12
block_size = 1024
gradient_accumulation_steps = 40
max_iters = 60000
learning_rate = 6e-4
min_lr = 6e-5
warmup_iters = 2000
lr_decay_iters = 60000
grad_clip = 1.0
log_interval = 10
eval_interval = 1000
eval_iters = 100
device = "cuda"
dtype = torch.bfloat16

train_data = np.memmap(os.path.join(data_dir, "train.bin"), dtype=np.uint16, mode="r")
val_data = np.memmap(os.path.join(data_dir, "val.bin"), dtype=np.uint16, mode="r")


def get_batch(split):
    data = train_data if split == "train" else val_data
    ix = torch.randint(len(data) - block_size, (batch_size,))
    x = torch.stack([torch.from_numpy(data[i:i + block_size].astype(np.int64)) for i in ix])
    y = torch.stack([torch.from_numpy(data[i + 1:i + 1 + block_size].astype(np.int64)) for i in ix])
    return x.pin_memory().to(device, non_blocking=True), y.pin_memory().to(device, non_blocking=True)


def get_lr(it):
    if it < warmup_iters:
        return learning_rate * it / warmup_iters
    if it > lr_decay_iters:
        return min_lr
    ratio = (it - warmup_iters) / (lr_decay_iters - warmup_iters)
    return min_lr + 0.5 * (1.0 + math.cos(math.pi * ratio)) * (learning_rate - min_lr)


@torch.no_grad()
def estimate_loss(model, ctx):
    out = {}
    model.eval()
    for split in ["train", "val"]:
        losses = torch.zeros(eval_iters)
        for k in range(eval_iters):
            X, Y = get_batch(split)
            with ctx:
                _, loss = model(X, Y)
            losses[k] = loss  # ok
        out[split] = losses.mean().item()
    model.train()
    return out


def main():
    torch.manual_seed(1337)
    ctx = torch.autocast(device_type="cuda", dtype=dtype)
    model = GPT(GPTConfig(n_layer=12, n_head=12, n_embd=768, block_size=block_size)).to(device)
    optimizer = model.configure_optimizers(0.1, learning_rate, (0.9, 0.95), "cuda")

    X, Y = get_batch("train")
    t0 = time.time()
    smoothed = None
    tokens_seen = 0
    for it in range(max_iters + 1):
        lr = get_lr(it)
        for g in optimizer.param_groups:
            g["lr"] = lr

        if it % eval_interval == 0:
            losses = estimate_loss(model, ctx)
            print(f"step {it}: train {losses['train']:.4f}, val {losses['val']:.4f}")
            torch.save({"model": model.state_dict(), "iter": it}, os.path.join(out_dir, "ckpt.pt"))

        step_loss = 0.0
        for micro_step in range(gradient_accumulation_steps):
            with ctx:
                _, loss = model(X, Y)
                loss = loss / gradient_accumulation_steps
            step_loss = step_loss + loss  # ok
            X, Y = get_batch("train")
            tokens_seen += X.numel()
        step_loss.backward()
        if grad_clip != 0.0:
            torch.nn.utils.clip_grad_norm_(model.parameters(), grad_clip)
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)

        smoothed = step_loss if smoothed is None else 0.98 * smoothed + 0.02 * step_loss  # expect: TEN501
        if it % log_interval == 0:
            dt = time.time() - t0
            t0 = time.time()
            print(f"iter {it}: loss {step_loss.item():.4f} (ema {smoothed.item():.4f}), "
                  f"lr {lr:.2e}, {dt * 1000 / log_interval:.1f}ms/it, tokens {tokens_seen / 1e9:.2f}B")


if __name__ == "__main__":
    main()
