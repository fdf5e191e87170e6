import torch
import torch.nn.functional as F


def run_epoch(model, opt, loader, tracker, tracker_ok, history, history_ok, step0):
    step = step0
    for xb, yb in loader:
        logits = model(xb)
        loss = F.cross_entropy(logits, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        correct = (logits.argmax(1) == yb).sum()
        tracker.update("loss", loss, len(yb))  # expect: TEN501
        tracker_ok.update("loss", loss.item(), len(yb))  # ok
        tracker_ok.update("correct", correct, 1)  # ok
        history.on_step_end(step, {"loss": loss, "logits_mean": logits.mean()})  # expect: TEN501
        history_ok.on_step_end(step, {"loss": loss.detach(), "logits_mean": logits.mean().item()})  # ok
        step += 1
    return step


def validate(model, loader):
    total = 0.0
    for xb, yb in loader:
        total += F.cross_entropy(model(xb), yb).item()
    loss_tensor = F.cross_entropy(model(loader[0][0]), loader[0][1])
    return loss_tensor, total / len(loader)
