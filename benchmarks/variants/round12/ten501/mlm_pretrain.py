"""Masked-LM pretraining with HF-style output objects."""
from dataclasses import dataclass
from typing import Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class MaskedLMOutput:
    loss: Optional[torch.Tensor] = None
    logits: Optional[torch.Tensor] = None
    hidden_states: Optional[Tuple[torch.Tensor, ...]] = None


class TinyMLM(nn.Module):
    def __init__(self, vocab_size=30522, d_model=256, n_layers=4, n_heads=4):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, d_model)
        self.layers = nn.ModuleList([
            nn.TransformerEncoderLayer(d_model, n_heads, 4 * d_model, batch_first=True) for _ in range(n_layers)
        ])
        self.lm_head = nn.Linear(d_model, vocab_size)

    def forward(self, input_ids, labels=None):
        h = self.embed(input_ids)
        hidden_states = [h]
        for layer in self.layers:
            h = layer(h)
            hidden_states.append(h)
        logits = self.lm_head(h)
        loss = None
        if labels is not None:
            loss = F.cross_entropy(logits.view(-1, logits.size(-1)), labels.view(-1), ignore_index=-100)
        return MaskedLMOutput(loss=loss, logits=logits, hidden_states=tuple(hidden_states))


class Pretrainer:
    def __init__(self, model, optimizer):
        self.model = model
        self.optimizer = optimizer
        self.last_outputs = None
        self.all_logits = []
        self.all_labels = []
        self.step_outputs = []
        self.loss_curve = []
        self.hidden_norms = []

    def step(self, batch):
        outputs = self.model(input_ids=batch["input_ids"], labels=batch["labels"])
        outputs.loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()

        self.last_outputs = outputs  # either
        self.all_logits.append(outputs.logits)  # expect: TEN501
        self.all_labels.append(batch["labels"])  # ok
        self.loss_curve.append(outputs.loss.item())  # ok
        self.step_outputs.append(outputs)  # expect: TEN501
        self.hidden_norms.append(outputs.hidden_states[-1].detach().norm(dim=-1).mean())  # ok
        return outputs.loss.item()

    @torch.no_grad()
    def masked_accuracy(self, loader):
        self.model.eval()
        correct, total = 0, 0
        for batch in loader:
            out = self.model(input_ids=batch["input_ids"])
            mask = batch["labels"] != -100
            correct += (out.logits.argmax(-1)[mask] == batch["labels"][mask]).sum().item()  # ok
            total += mask.sum().item()
        self.model.train()
        return correct / max(total, 1)
