"""Dual-encoder image/text contrastive training with a learnable temperature."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class DualEncoder(nn.Module):
    def __init__(self, vocab=10_000, d=256):
        super().__init__()
        self.img = nn.Sequential(nn.Conv2d(3, 64, 4, 4), nn.GELU(), nn.AdaptiveAvgPool2d(1),
                                 nn.Flatten(), nn.Linear(64, d))
        self.txt_emb = nn.EmbeddingBag(vocab, d)
        self.txt_proj = nn.Linear(d, d)
        self.logit_scale = nn.Parameter(torch.tensor(math.log(1 / 0.07)))

    @property
    def temperature(self):
        return 1.0 / self.logit_scale.exp()

    def forward(self, images, tokens, offsets):
        i = F.normalize(self.img(images), dim=-1)
        t = F.normalize(self.txt_proj(self.txt_emb(tokens, offsets)), dim=-1)
        return i, t


def clip_loss(i, t, scale):
    logits = scale.exp().clamp(max=100) * i @ t.t()
    labels = torch.arange(i.size(0))
    return (F.cross_entropy(logits, labels) + F.cross_entropy(logits.t(), labels)) / 2, logits


def train(model, loader, total_steps):
    opt = torch.optim.AdamW(model.parameters(), lr=5e-4, weight_decay=0.2)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, total_steps)
    loss_buf = torch.zeros(total_steps)
    temp_buf = torch.zeros(total_steps)
    acc_buf = torch.zeros(total_steps)
    lr_trace = []
    step = 0
    while step < total_steps:
        for images, tokens, offsets in loader:
            i, t = model(images, tokens, offsets)
            loss, logits = clip_loss(i, t, model.logit_scale)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            loss_buf[step] = loss  # expect: TEN501
            temp_buf[step] = model.temperature.item()  # ok
            acc_buf[step] = (logits.argmax(1) == torch.arange(len(logits))).float().mean()  # ok
            lr_trace.append(sched.get_last_lr()[0])  # ok
            step += 1  # ok
            if step == total_steps:
                break
    return loss_buf, temp_buf, acc_buf


@torch.no_grad()
def zero_shot(model, images, class_tokens, class_offsets):
    i, t = model(images, class_tokens, class_offsets)
    preds = []
    for row in i @ t.t():
        preds.append(row.argmax())  # ok
    return torch.stack(preds)
