"""train_one_epoch / evaluate, in the style of torchvision's reference scripts."""
import torch
import torch.nn.functional as F


def train_one_epoch(model, loader, optimizer, epoch, meter, history, callbacks, recorder, step0=0):
    model.train()
    meter.reset()
    logger, keeper = callbacks
    epoch_loss = 0.0
    for i, (images, targets) in enumerate(loader):
        logits = model(images)
        loss = F.cross_entropy(logits, targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        step = step0 + i

        meter.update(loss, n=images.size(0))  # expect: TEN501
        history.add(loss=loss.item(), lr=optimizer.param_groups[0]["lr"])  # ok
        history.add(logits=logits)  # expect: TEN501
        logger.on_step_end(step, loss)  # expect: TEN501
        keeper.on_step_end(step, loss.detach())  # ok
        recorder(step, loss.item())  # ok
        epoch_loss = epoch_loss + loss  # expect: TEN501
    return epoch_loss / len(loader)


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    correct, total, losses = 0, 0, []
    for images, targets in loader:
        logits = model(images)
        losses.append(F.cross_entropy(logits, targets))
        correct += (logits.argmax(1) == targets).sum().item()
        total += targets.numel()
    return torch.stack(losses).mean(), correct / total
