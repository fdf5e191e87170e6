"""Contrastive image-text fine-tuning with a learnable temperature (CLIP-style)."""
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class DualEncoder(nn.Module):
    def __init__(self, image_encoder, text_encoder, embed_dim=512, img_dim=768, txt_dim=512):
        super().__init__()
        self.visual = image_encoder
        self.textual = text_encoder
        self.img_proj = nn.Linear(img_dim, embed_dim, bias=False)
        self.txt_proj = nn.Linear(txt_dim, embed_dim, bias=False)
        self.logit_scale = nn.Parameter(torch.ones([]) * np.log(1 / 0.07))

    @property
    def temperature(self):
        return 1.0 / self.logit_scale.exp()

    def encode_image(self, images):
        return F.normalize(self.img_proj(self.visual(images)), dim=-1)

    def encode_text(self, tokens):
        return F.normalize(self.txt_proj(self.textual(tokens)), dim=-1)

    def forward(self, images, tokens):
        img = self.encode_image(images)
        txt = self.encode_text(tokens)
        logits = self.logit_scale.exp() * img @ txt.t()
        return logits, logits.t()


def clip_loss(logits_per_image, logits_per_text):
    labels = torch.arange(logits_per_image.size(0), device=logits_per_image.device)
    return (F.cross_entropy(logits_per_image, labels) + F.cross_entropy(logits_per_text, labels)) / 2


def cosine_lr(step, total, base_lr, warmup):
    if step < warmup:
        return base_lr * (step + 1) / warmup
    progress = (step - warmup) / max(1, total - warmup)
    return 0.5 * base_lr * (1 + math.cos(math.pi * progress))


def finetune(model, loader, epochs=10, base_lr=5e-5, warmup=500, device="cuda", log_every=50):
    model.to(device).train()
    decay = [p for n, p in model.named_parameters() if p.ndim >= 2]
    no_decay = [p for n, p in model.named_parameters() if p.ndim < 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.1},
                             {"params": no_decay, "weight_decay": 0.0}], lr=base_lr)
    total = epochs * len(loader)
    temp_history, scale_log, lr_log = [], [], []
    step = 0
    for epoch in range(epochs):
        for images, tokens in loader:
            lr = cosine_lr(step, total, base_lr, warmup)
            for g in opt.param_groups:
                g["lr"] = lr
            lr_log.append(lr)  # ok

            logits_i, logits_t = model(images.to(device), tokens.to(device))
            loss = clip_loss(logits_i, logits_t)
            opt.zero_grad()
            loss.backward()
            opt.step()
            with torch.no_grad():
                model.logit_scale.clamp_(0, math.log(100))

            temp_history.append(model.temperature)  # expect: TEN501
            scale_log.append(model.logit_scale.exp().item())  # ok
            if step % log_every == 0:
                acc = (logits_i.argmax(1) == torch.arange(len(logits_i), device=device)).float().mean()
                print(f"ep {epoch} step {step} loss {loss.item():.4f} acc {acc.item():.3f} "
                      f"T {float(temp_history[-1]):.4f} lr {lr:.2e}")
            step += 1
    return {"temperature": [float(t) for t in temp_history], "logit_scale": scale_log, "lr": lr_log}
