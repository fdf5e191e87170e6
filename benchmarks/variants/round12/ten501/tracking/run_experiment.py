import torch
import torch.nn.functional as F

from .tracker import MetricTracker, write_jsonl


def l2_penalty(model, coeff=1e-4):
    return coeff * sum(p.pow(2).sum() for p in model.parameters() if p.ndim > 1)


def run(model, loader, optimizer, epochs, out="metrics.jsonl"):
    tracker = MetricTracker()
    for epoch in range(epochs):
        model.train()
        for x, y in loader:
            logits = model(x)
            ce = F.cross_entropy(logits, y)
            reg = l2_penalty(model)
            loss = ce + reg
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

            acc = (logits.argmax(1) == y).float().mean()
            tracker.log("loss", loss)  # expect: TEN501
            tracker.log_scalar("ce", ce)  # ok
            tracker.log("acc", acc)  # ok
            tracker.log_dict({"ce": ce.item(), "reg": reg.item()})  # ok
            tracker.log_dict({"reg_t": reg})  # expect: TEN501
        print(epoch, tracker.summary())
    write_jsonl(out, [tracker.summary()])
    return tracker


@torch.no_grad()
def evaluate(model, loader, tracker):
    model.eval()
    for x, y in loader:
        logits = model(x)
        tracker.log("val_loss", F.cross_entropy(logits, y))  # ok
        tracker.log("val_acc", (logits.argmax(1) == y).float().mean())  # ok
    return tracker.summary()
