"""A stripped-down HF-Trainer-like loop for sequence classification."""
from dataclasses import dataclass, field
from typing import List, Optional

import torch
import torch.nn as nn


@dataclass
class TrainerState:
    global_step: int = 0
    log_history: List[dict] = field(default_factory=list)
    best_metric: Optional[float] = None
    loss_trace: list = field(default_factory=list)


class TinyBert(nn.Module):
    def __init__(self, vocab=30522, d=128, n_labels=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        enc = nn.TransformerEncoderLayer(d, 4, 256, batch_first=True)
        self.encoder = nn.TransformerEncoder(enc, 2)
        self.cls = nn.Linear(d, n_labels)

    def forward(self, input_ids, attention_mask, labels=None):
        h = self.encoder(self.emb(input_ids), src_key_padding_mask=attention_mask == 0)
        logits = self.cls(h[:, 0])
        out = {"logits": logits}
        if labels is not None:
            out["loss"] = nn.functional.cross_entropy(logits, labels)
        return out


class Trainer:
    def __init__(self, model, train_loader, grad_accum=4, lr=5e-5, logging_steps=50):
        self.model = model
        self.loader = train_loader
        self.grad_accum = grad_accum
        self.logging_steps = logging_steps
        self.opt = torch.optim.AdamW(model.parameters(), lr=lr)
        self.state = TrainerState()

    def training_step(self, batch):
        self.model.train()
        outputs = self.model(**batch)
        loss = outputs["loss"] / self.grad_accum
        loss.backward()
        return outputs

    def train(self, epochs=1):
        tr_loss = torch.tensor(0.0)
        logged_loss = 0.0
        accum_loss = 0.0
        for epoch in range(epochs):
            for step, batch in enumerate(self.loader):
                outputs = self.training_step(batch)
                tr_loss += outputs["loss"].detach() / self.grad_accum  # ok
                accum_loss = accum_loss + outputs["loss"] / self.grad_accum  # either
                self.state.loss_trace.append(outputs["loss"])  # expect: TEN501
                if (step + 1) % self.grad_accum == 0:
                    torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
                    self.opt.step()
                    self.opt.zero_grad()
                    self.state.global_step += 1  # ok
                    accum_loss = 0.0
                    if self.state.global_step % self.logging_steps == 0:
                        cur = tr_loss.item()
                        self.state.log_history.append(  # ok
                            {"step": self.state.global_step, "loss": (cur - logged_loss) / self.logging_steps}
                        )
                        logged_loss = cur
        return self.state

    def predict(self, loader):
        self.model.eval()
        all_logits = []
        with torch.no_grad():
            for batch in loader:
                batch = {k: v for k, v in batch.items() if k != "labels"}
                all_logits.append(self.model(**batch)["logits"])  # ok
        return torch.cat(all_logits)
