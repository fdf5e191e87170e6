"""Small trainer for HuggingFace-style models (``model(**batch).loss``)."""
import logging
import math
import os

import torch
import torch.nn as nn

log = logging.getLogger(__name__)


class WeightDriftLogger:
    """Logs the L2 distance of the weights from where training started."""

    def __init__(self, model, every=100):
        self.model = model
        self.every = every
        self.reference = [p.detach() for p in model.parameters()]  # expect: TEN402

    def __call__(self, step, writer):
        if step % self.every:
            return
        sq = 0.0
        for p, r in zip(self.model.parameters(), self.reference):
            sq += (p.detach() - r).float().pow(2).sum().item()
        writer.add_scalar("weights/drift_from_start", math.sqrt(sq), step)

    def rebase(self):
        """Measure drift from the current weights from now on (e.g. after warmup)."""
        self.reference = [p.detach().clone() for p in self.model.parameters()]  # ok


class Trainer:
    def __init__(self, model, train_loader, val_loader, lr=3e-4, weight_decay=0.01, grad_clip=1.0,
                 out_dir="checkpoints", writer=None):
        self.model = model
        self.train_loader = train_loader
        self.val_loader = val_loader
        self.device = next(model.parameters()).device
        self.trainable = [p for p in model.parameters() if p.requires_grad]  # ok
        self.optimizer = torch.optim.AdamW(self.trainable, lr=lr, weight_decay=weight_decay)
        self.grad_clip = grad_clip
        self.out_dir = out_dir
        self.writer = writer
        self.drift = WeightDriftLogger(model) if writer is not None else None
        self.global_step = 0
        self.best_val = math.inf
        self.anchor = None
        os.makedirs(out_dir, exist_ok=True)

    def _snapshot(self):
        return {k: v.to(self.device) for k, v in self.model.state_dict().items()}

    def _move(self, batch):
        return {k: v.to(self.device, non_blocking=True) for k, v in batch.items()}  # ok

    def train_epoch(self):
        self.model.train()
        for batch in self.train_loader:
            batch = self._move(batch)
            loss = self.model(**batch).loss
            self.optimizer.zero_grad(set_to_none=True)
            loss.backward()
            nn.utils.clip_grad_norm_(self.trainable, self.grad_clip)
            self.optimizer.step()
            self.global_step += 1
            if self.writer is not None:
                self.writer.add_scalar("train/loss", loss.item(), self.global_step)
                self.drift(self.global_step, self.writer)

    @torch.no_grad()
    def validate(self):
        self.model.eval()
        total, n = 0.0, 0
        for batch in self.val_loader:
            batch = self._move(batch)
            out = self.model(**batch)
            bs = batch["input_ids"].size(0)
            total += out.loss.item() * bs
            n += bs
        return total / max(n, 1)

    def fit(self, epochs):
        for epoch in range(epochs):
            self.train_epoch()
            val = self.validate()
            log.info("epoch %d  val_loss %.4f  ppl %.2f", epoch, val, math.exp(min(val, 20)))
            if val < self.best_val:
                self.best_val = val
                self.anchor = self._snapshot()  # expect: TEN402
                torch.save(self.model.state_dict(), os.path.join(self.out_dir, "best.pt"))  # ok
        if self.anchor is not None:
            self.model.load_state_dict(self.anchor)
        return self.best_val
