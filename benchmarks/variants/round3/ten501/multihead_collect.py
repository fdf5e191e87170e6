# Face attributes: gender classification + age regression, shared backbone.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import timm
from sklearn.metrics import roc_auc_score


class MultiHeadNet(nn.Module):
    def __init__(self, backbone="resnet34", n_classes=2):
        super().__init__()
        self.backbone = timm.create_model(backbone, pretrained=True, num_classes=0)
        d = self.backbone.num_features
        self.cls_head = nn.Linear(d, n_classes)
        self.age_head = nn.Sequential(nn.Linear(d, 256), nn.ReLU(), nn.Linear(256, 1))

    def forward(self, x):
        f = self.backbone(x)
        return self.cls_head(f), self.age_head(f).squeeze(1)


def train_epoch(model, loader, optimizer, device, age_weight=0.1):
    model.train()
    epoch_terms = {"cls": 0.0, "age": 0.0}
    ema_loss = 0.0
    all_preds, all_targets, all_probs, age_err = [], [], [], []
    for step, (x, y, age) in enumerate(loader):
        x, y, age = x.to(device), y.to(device), age.to(device).float()
        cls_logits, age_pred = model(x)
        terms = {
            "cls": F.cross_entropy(cls_logits, y),
            "age": F.smooth_l1_loss(age_pred, age),
        }
        loss = terms["cls"] + age_weight * terms["age"]
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

        for k, v in terms.items():
            epoch_terms[k] += v.detach()
        with torch.no_grad():
            ema_loss = 0.98 * ema_loss + 0.02 * loss
        all_preds.append(cls_logits.argmax(dim=1))
        all_targets.append(y)
        all_probs.append(F.softmax(cls_logits, dim=1)[:, 1].detach().cpu().numpy())
        age_err.append((age_pred.detach() - age).abs().cpu())
        if step % 100 == 0:
            print(f"step {step} ema_loss {ema_loss.item():.4f}")

    preds = torch.cat(all_preds)
    targets = torch.cat(all_targets)
    stats = {k: (v / len(loader)).item() for k, v in epoch_terms.items()}
    stats["acc"] = (preds == targets).float().mean().item()
    stats["auc"] = roc_auc_score(targets.cpu().numpy(), np.concatenate(all_probs))
    stats["age_mae"] = torch.cat(age_err).mean().item()
    return stats


def main(train_loader, epochs=20, device="cuda"):
    model = MultiHeadNet().to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4, weight_decay=0.05)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, epochs)
    history = []
    for epoch in range(epochs):
        stats = train_epoch(model, train_loader, optimizer, device)
        sched.step()
        history.append(stats)
        print(epoch, {k: round(v, 4) for k, v in stats.items()})
    return model, history
