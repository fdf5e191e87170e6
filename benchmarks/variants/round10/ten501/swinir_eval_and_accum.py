"""SwinIR x4 fine-tuning with gradient accumulation, plus self-ensemble evaluation."""
import math

import torch
import torch.nn.functional as F


def calc_psnr(sr, hr, crop=4):
    sr = sr[..., crop:-crop, crop:-crop].clamp(0, 1)
    hr = hr[..., crop:-crop, crop:-crop]
    mse = (sr - hr).pow(2).flatten(1).mean(1)
    return (10.0 * torch.log10(1.0 / mse)).sum()


def _augment(x, mode):
    if mode & 1:
        x = x.flip(-1)
    if mode & 2:
        x = x.flip(-2)
    if mode & 4:
        x = x.transpose(-1, -2)
    return x


def _deaugment(x, mode):
    if mode & 4:
        x = x.transpose(-1, -2)
    if mode & 2:
        x = x.flip(-2)
    if mode & 1:
        x = x.flip(-1)
    return x


@torch.no_grad()
def evaluate(model, loader, device="cuda", self_ensemble=True, keep_outputs=False):
    model.eval()
    psnr_total = 0.0
    n_images = 0
    preds = torch.empty(0)
    for lr, hr in loader:
        lr, hr = lr.to(device), hr.to(device)
        if self_ensemble:
            outs = []
            for mode in range(8):
                outs.append(_deaugment(model(_augment(lr, mode)), mode))  # ok
            sr = torch.stack(outs).mean(0)
        else:
            sr = model(lr)
        psnr_total += calc_psnr(sr, hr)  # ok
        n_images += lr.size(0)
        if keep_outputs:
            preds = torch.cat([preds, sr.cpu()])  # ok
    model.train()
    return float(psnr_total) / n_images, preds


def train(model, loader, val_loader, total_iters=250_000, accum_steps=4, lr=2e-4, device="cuda",
          val_every=5000):
    opt = torch.optim.Adam(model.parameters(), lr=lr, betas=(0.9, 0.99))
    sched = torch.optim.lr_scheduler.MultiStepLR(opt, [125_000, 200_000, 225_000, 240_000], 0.5)
    model.to(device).train()
    opt.zero_grad()
    pending = 0.0
    log = []
    it = 0
    micro = 0
    while it < total_iters:
        for lq, gt in loader:
            lq, gt = lq.to(device), gt.to(device)
            loss = F.l1_loss(model(lq), gt) / accum_steps
            pending = pending + loss  # ok
            micro += 1
            if micro % accum_steps:
                continue
            pending.backward()
            opt.step()
            opt.zero_grad()
            sched.step()
            log.append(pending.item())  # ok
            pending = 0.0
            it += 1
            if it % val_every == 0:
                val_psnr, _ = evaluate(model, val_loader, device)
                print(f"iter {it}: l1 {sum(log[-100:]) / len(log[-100:]):.4f}  psnr {val_psnr:.2f}dB "
                      f"lr {sched.get_last_lr()[0]:.2e}")
            if it >= total_iters:
                break
    return log
