"""Loss functions returning a dict of terms (total plus its components)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def l2_penalty(model):
    return sum(p.pow(2).sum() for name, p in model.named_parameters() if p.dim() > 1)


def compute_losses(model, batch, label_smoothing=0.05, weight_decay=1e-4):
    x, y = batch
    logits = model(x)
    ce = F.cross_entropy(logits, y, label_smoothing=label_smoothing)
    l2 = l2_penalty(model)
    return {"total": ce + weight_decay * l2, "ce": ce, "l2": l2}, logits


class FocalLoss(nn.Module):
    def __init__(self, gamma=2.0):
        super().__init__()
        self.gamma = gamma

    def forward(self, logits, y):
        logp = F.log_softmax(logits, dim=1).gather(1, y[:, None]).squeeze(1)
        return (-(1 - logp.exp()) ** self.gamma * logp).mean()
