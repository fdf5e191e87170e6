"""Step-budgeted training with autocast + GradScaler (iterates by step count, not by epoch)."""
import itertools
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

MAX_STEPS = 120
LOG_EVERY = 40
WARMUP = 10


def lr_lambda(step):
    if step < WARMUP:
        return (step + 1) / WARMUP
    return 0.5 * (1 + math.cos(math.pi * (step - WARMUP) / (MAX_STEPS - WARMUP)))


def main():
    torch.manual_seed(0)
    device_type = "cuda" if torch.cuda.is_available() else "cpu"
    amp_dtype = torch.float16 if device_type == "cuda" else torch.bfloat16

    x = torch.randn(1024, 32)
    y = x[:, :4].pow(2).sum(dim=1, keepdim=True)
    loader = DataLoader(TensorDataset(x, y), batch_size=64, shuffle=True, drop_last=True)
    batches = itertools.cycle(loader)

    model = nn.Sequential(nn.Linear(32, 128), nn.SiLU(), nn.Linear(128, 1)).to(device_type)
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=0.01)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lr_lambda)
    scaler = torch.amp.GradScaler(device_type, enabled=(device_type == "cuda"))

    step = 0
    window_loss = 0.0
    smoothed = 0.0
    lrs = []
    while step < MAX_STEPS:
        xb, yb = next(batches)
        xb, yb = xb.to(device_type), yb.to(device_type)
        with torch.autocast(device_type=device_type, dtype=amp_dtype):
            pred = model(xb)
            loss = F.smooth_l1_loss(pred.float(), yb)
        opt.zero_grad(set_to_none=True)
        scaler.scale(loss).backward()
        scaler.unscale_(opt)
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        scaler.step(opt)
        scaler.update()
        sched.step()

        window_loss += loss.float()  # expect: TEN501
        smoothed = 0.98 * smoothed + 0.02 * loss.item()  # ok
        lrs.append(sched.get_last_lr()[0])
        step += 1
        if step % LOG_EVERY == 0:
            print(f"step {step}: window {float(window_loss) / LOG_EVERY:.4f} ema {smoothed:.4f} lr {lrs[-1]:.2e}")
            window_loss = 0.0


if __name__ == "__main__":
    main()
