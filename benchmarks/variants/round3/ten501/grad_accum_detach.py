"""Causal LM fine-tuning loop with gradient accumulation and AMP (Trainer-like)."""
import math
import time

import torch
from torch.utils.data import DataLoader
from transformers import AutoModelForCausalLM, get_cosine_schedule_with_warmup


def training_step(model, inputs, accum_steps, scaler):
    model.train()
    with torch.autocast("cuda", dtype=torch.bfloat16):
        outputs = model(**inputs)
        loss = outputs.loss
    loss = loss / accum_steps
    scaler.scale(loss).backward()
    return loss.detach()


def train(model_name, train_ds, collate_fn, *, lr=2e-5, epochs=1, bs=4, accum_steps=8,
          logging_steps=10, max_grad_norm=1.0, device="cuda"):
    model = AutoModelForCausalLM.from_pretrained(model_name).to(device)
    model.gradient_checkpointing_enable()
    loader = DataLoader(train_ds, batch_size=bs, shuffle=True, collate_fn=collate_fn)
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.0)
    total_updates = epochs * math.ceil(len(loader) / accum_steps)
    scheduler = get_cosine_schedule_with_warmup(optimizer, int(0.03 * total_updates), total_updates)
    scaler = torch.cuda.amp.GradScaler(enabled=False)

    tr_loss = torch.tensor(0.0, device=device)
    logged_loss = 0.0
    smooth_loss = None
    global_step = 0
    t0 = time.time()
    for epoch in range(epochs):
        for step, batch in enumerate(loader):
            batch = {k: v.to(device, non_blocking=True) for k, v in batch.items()}
            tr_loss_step = training_step(model, batch, accum_steps, scaler)
            tr_loss += tr_loss_step

            step_loss = float(tr_loss_step) * accum_steps
            smooth_loss = step_loss if smooth_loss is None else 0.98 * smooth_loss + 0.02 * step_loss

            if (step + 1) % accum_steps != 0:
                continue
            scaler.unscale_(optimizer)
            torch.nn.utils.clip_grad_norm_(model.parameters(), max_grad_norm)
            scaler.step(optimizer)
            scaler.update()
            scheduler.step()
            optimizer.zero_grad(set_to_none=True)
            global_step += 1

            if global_step % logging_steps == 0:
                tr_loss_scalar = tr_loss.item()
                tr_loss -= tr_loss
                logs = {
                    "loss": round(tr_loss_scalar / logging_steps, 4),
                    "smooth": round(smooth_loss, 4),
                    "lr": scheduler.get_last_lr()[0],
                    "epoch": epoch + step / len(loader),
                    "it/s": round(global_step / (time.time() - t0), 3),
                }
                logged_loss += logs["loss"]
                print(logs)
    model.save_pretrained("ckpt-final")
    return logged_loss
