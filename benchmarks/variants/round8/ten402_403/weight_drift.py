"""Fine-tuning a sentence classifier with weight-drift logging."""
import math

import torch
import torch.nn.functional as F
from torch.utils.tensorboard import SummaryWriter
from transformers import AutoModelForSequenceClassification, get_linear_schedule_with_warmup


class DriftMonitor:
    """Tracks how far the weights move away from the pretrained checkpoint."""

    def __init__(self, model):
        self.model = model
        self.reference = list(model.parameters())  # expect: TEN402
        self.ref_norm = math.sqrt(sum(p.detach().pow(2).sum().item() for p in self.reference))

    @torch.no_grad()
    def distance(self):
        sq = 0.0
        for p, p0 in zip(self.model.parameters(), self.reference):
            sq += (p - p0).pow(2).sum().item()
        return math.sqrt(sq)

    def relative(self):
        return self.distance() / max(self.ref_norm, 1e-12)


def finetune(train_loader, val_loader, model_name="bert-base-uncased", epochs=3, lr=2e-5, device="cuda", logdir="runs/drift"):
    model = AutoModelForSequenceClassification.from_pretrained(model_name, num_labels=2).to(device)
    writer = SummaryWriter(logdir)
    monitor = DriftMonitor(model)
    init_norms = [p.detach().norm().item() for p in model.parameters()]  # ok

    params = list(model.parameters())  # ok
    optimizer = torch.optim.AdamW(params, lr=lr, weight_decay=0.01)
    total = epochs * len(train_loader)
    scheduler = get_linear_schedule_with_warmup(optimizer, int(0.06 * total), total)

    step = 0
    for epoch in range(epochs):
        model.train()
        for batch in train_loader:
            batch = {k: v.to(device) for k, v in batch.items()}
            out = model(**batch)
            out.loss.backward()
            torch.nn.utils.clip_grad_norm_(params, 1.0)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
            step += 1
            if step % 50 == 0:
                writer.add_scalar("train/loss", out.loss.item(), step)
                writer.add_scalar("drift/l2", monitor.distance(), step)
                writer.add_scalar("drift/relative", monitor.relative(), step)

        model.eval()
        correct = n = 0
        with torch.no_grad():
            for batch in val_loader:
                batch = {k: v.to(device) for k, v in batch.items()}
                logits = model(**batch).logits
                correct += (logits.argmax(-1) == batch["labels"]).sum().item()
                n += batch["labels"].numel()
        writer.add_scalar("val/acc", correct / n, epoch)

    for (name, p), n0 in zip(model.named_parameters(), init_norms):
        writer.add_scalar(f"norm_ratio/{name}", p.detach().norm().item() / max(n0, 1e-12), step)
    writer.close()
    return model
