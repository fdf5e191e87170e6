"""HuggingFace-Trainer-like loop: the model returns an output dataclass with `.loss`."""
from dataclasses import dataclass
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class SequenceClassifierOutput:
    loss: Optional[torch.Tensor] = None
    logits: Optional[torch.Tensor] = None


class TinyBert(nn.Module):
    def __init__(self, vocab=50, d=16, n_labels=3):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.head = nn.Linear(d, n_labels)

    def forward(self, input_ids, attention_mask=None, labels=None):
        h = self.emb(input_ids)
        if attention_mask is not None:
            h = h * attention_mask.unsqueeze(-1)
        logits = self.head(h.mean(1))
        loss = F.cross_entropy(logits, labels) if labels is not None else None
        return SequenceClassifierOutput(loss=loss, logits=logits)


def batches(n=5, bs=4, seq=7):
    for _ in range(n):
        yield {
            "input_ids": torch.randint(0, 50, (bs, seq)),
            "attention_mask": torch.ones(bs, seq),
            "labels": torch.randint(0, 3, (bs,)),
        }


class Trainer:
    def __init__(self, model, lr=1e-3, gradient_accumulation_steps=2):
        self.model = model
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
        self.gas = gradient_accumulation_steps
        self.log_history = []

    def compute_loss(self, model, inputs):
        outputs = model(**inputs)
        return outputs.loss

    def training_step(self, model, inputs):
        model.train()
        loss = self.compute_loss(model, inputs)
        loss = loss / self.gas
        loss.backward()
        return loss

    def training_step_fixed(self, model, inputs):
        model.train()
        loss = self.compute_loss(model, inputs)
        loss.backward()
        return loss.detach()

    def train(self, epochs=2):
        tr_loss = torch.tensor(0.0)
        tr_loss_fixed = torch.tensor(0.0)
        for epoch in range(epochs):
            for step, inputs in enumerate(batches()):
                tr_loss_step = self.training_step(self.model, inputs)
                tr_loss += tr_loss_step  # expect: TEN501
                tr_loss_fixed += self.training_step_fixed(self.model, inputs)  # ok
                if (step + 1) % self.gas == 0:
                    self.optimizer.step()
                    self.optimizer.zero_grad()
            self.log_history.append({"epoch": epoch, "loss": tr_loss.item() / (step + 1)})  # ok
        return tr_loss


def plain_loop(model, epochs=2):
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    running = 0.0
    all_logits = []
    safe_logits = []
    for epoch in range(epochs):
        for batch in batches():
            outputs = model(**batch)
            outputs.loss.backward()
            opt.step()
            opt.zero_grad()
            running = running + outputs.loss  # expect: TEN501
            all_logits.append(outputs.logits)  # expect: TEN501
            safe_logits.append(outputs.logits.detach().cpu())  # ok
    return running, all_logits


def eval_loop(model):
    model.eval()
    eval_losses = []
    with torch.no_grad():
        for batch in batches(3):
            out = model(**batch)
            eval_losses.append(out.loss)  # ok
    return torch.stack(eval_losses).mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    m = TinyBert()
    t = Trainer(m)
    acc = t.train()
    print("Trainer tr_loss grad_fn:", acc.grad_fn)
    r, logits = plain_loop(m)
    print("plain running grad_fn:", r.grad_fn, "logits graph:", logits[0].grad_fn is not None)
    print("eval:", eval_loop(m).grad_fn)
