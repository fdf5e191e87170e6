"""HF-Trainer-like fine-tuning loop with a state object and log history."""
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


@dataclass
class TrainerState:
    global_step: int = 0
    log_history: list = field(default_factory=list)
    best_metric: float = None


class TinyEncoderClassifier(nn.Module):
    def __init__(self, vocab=30, d=16, n_labels=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.layer = nn.TransformerEncoderLayer(d, 2, 32, dropout=0.0, batch_first=True)
        self.cls = nn.Linear(d, n_labels)

    def forward(self, input_ids, labels=None):
        h = self.layer(self.emb(input_ids))
        logits = self.cls(h[:, 0])
        loss = F.cross_entropy(logits, labels) if labels is not None else None
        return {"loss": loss, "logits": logits}


class Trainer:
    def __init__(self, model, logging_steps=2, detach_step_loss=True):
        self.model = model
        self.opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
        self.state = TrainerState()
        self.logging_steps = logging_steps
        self.detach_step_loss = detach_step_loss

    def training_step(self, batch):
        self.model.train()
        out = self.model(**batch)
        out["loss"].backward()
        if self.detach_step_loss:
            return out["loss"].detach()
        return out["loss"]

    def _maybe_log(self, tr_loss, logged_since):
        logs = {"loss": tr_loss / logged_since, "step": self.state.global_step}
        self.state.log_history.append(logs)  # expect: TEN501

    def train(self, batches, epochs=2):
        tr_loss = torch.tensor(0.0)
        logged_since = 0
        for _ in range(epochs):
            for batch in batches:
                tr_loss_step = self.training_step(batch)
                tr_loss += tr_loss_step  # either: TEN501
                logged_since += 1
                self.opt.step()
                self.opt.zero_grad()
                self.state.global_step += 1
                if self.state.global_step % self.logging_steps == 0:
                    if self.detach_step_loss:
                        self.state.log_history.append({"loss": round(tr_loss.item() / logged_since, 4), "step": self.state.global_step})  # ok
                    else:
                        self._maybe_log(tr_loss, logged_since)
                    tr_loss = tr_loss - tr_loss
                    logged_since = 0
        return self.state


batches = []
for _ in range(4):
    ids = torch.randint(0, 30, (6, 5))
    batches.append({"input_ids": ids, "labels": (ids[:, 0] > 15).long()})
for detach in (True, False):
    torch.manual_seed(0)
    st = Trainer(TinyEncoderClassifier(), detach_step_loss=detach).train(batches)
    print("detach" if detach else "raw", st.global_step, [round(float(h["loss"]), 4) for h in st.log_history])
