"""Train / eval steps for the binary lesion classifier."""
import torch
import torch.nn as nn


def build_criterion(pos_weight=None, label_smoothing=0.0):
    weight = None
    if pos_weight is not None:
        weight = torch.tensor([1.0, float(pos_weight)])
    return nn.CrossEntropyLoss(weight=weight, label_smoothing=label_smoothing)


def train_step(model, batch, optimizer, criterion, scaler=None, device="cuda"):
    images, labels = batch
    images = images.to(device, non_blocking=True)
    labels = labels.to(device, non_blocking=True)
    with torch.autocast(device_type="cuda", dtype=torch.float16, enabled=scaler is not None):
        logits = model(images)
        loss = criterion(logits, labels)
    optimizer.zero_grad(set_to_none=True)
    if scaler is not None:
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
    else:
        loss.backward()
        optimizer.step()
    return {"loss": loss.item(), "logits": logits, "labels": labels}


@torch.no_grad()
def evaluate(model, loader, criterion, device="cuda"):
    model.eval()
    total, n = 0.0, 0
    logits_all, labels_all = [], []
    for images, labels in loader:
        images, labels = images.to(device), labels.to(device)
        logits = model(images)
        total += criterion(logits, labels).item() * labels.size(0)
        n += labels.size(0)
        logits_all.append(logits.float())
        labels_all.append(labels)
    return total / n, torch.cat(logits_all), torch.cat(labels_all)


def positive_scores(logits):
    return torch.softmax(logits.float(), dim=1)[:, 1]
