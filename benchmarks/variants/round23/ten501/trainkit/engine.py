import torch
import torch.nn.functional as F

from .meters import accumulate


def train_one_epoch(model, batches, opt, tracker, meter, epoch_totals):
    model.train()
    total = 0.0
    for x, y in batches:
        logits = model(x)
        loss = F.cross_entropy(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        tracker.update("loss", loss)  # expect: TEN501
        meter.update(loss.item(), x.size(0))  # ok
        accumulate(epoch_totals, "loss", loss)  # expect: TEN501
        total = total + loss.detach()  # ok
    return total / len(batches), logits


@torch.no_grad()
def evaluate(model, batches, val_tracker):
    model.eval()
    total = 0.0
    for x, y in batches:
        loss = F.cross_entropy(model(x), y)
        val_tracker.update("val_loss", loss)  # ok
        total += loss  # ok
    return total / len(batches)
