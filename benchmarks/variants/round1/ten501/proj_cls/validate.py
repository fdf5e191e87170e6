import torch

from metrics import AverageMeter


def validate(model, loader, criterion):
    model.eval()
    loss_meter = AverageMeter()
    all_logits = []
    preds = []
    for x, y in loader:
        logits = model(x)
        loss = criterion(logits, y)
        loss_meter.update(loss, x.size(0))  # expect: TEN501
        all_logits.append(logits)  # expect: TEN501
        preds.append(logits.argmax(1))  # ok
    return loss_meter.avg, torch.cat(all_logits), torch.cat(preds)
