"""Transformers-style output objects: dataclass and NamedTuple with .loss/.logits."""
from dataclasses import dataclass
from typing import NamedTuple, Optional

import torch
from torch import nn


@dataclass
class SeqClsOutput:
    logits: torch.Tensor
    loss: Optional[torch.Tensor] = None
    hidden: Optional[torch.Tensor] = None


class Scores(NamedTuple):
    logits: torch.Tensor
    loss: torch.Tensor


class TinyEncoder(nn.Module):
    def __init__(self, vocab=30, dim=16, n_cls=3):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim)
        self.cls = nn.Linear(dim, n_cls)

    def forward(self, ids, labels=None):
        h = self.emb(ids)
        logits = self.cls(h)
        loss = None
        if labels is not None:
            loss = nn.functional.cross_entropy(logits, labels)
        return SeqClsOutput(logits=logits, loss=loss, hidden=h)


def score(model, ids, labels):
    o = model(ids, labels=labels)
    return Scores(o.logits, o.loss)


def main():
    torch.manual_seed(0)
    model = TinyEncoder()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    data = [(torch.randint(0, 30, (8, 5)), torch.randint(0, 3, (8,))) for _ in range(5)]

    tr_loss = torch.tensor(0.0)
    tr_loss_graph = torch.tensor(0.0)
    all_logits, all_labels, all_preds, hidden_means = [], [], [], []
    for epoch in range(3):
        for ids, labels in data:
            outputs = model(ids, labels=labels)
            outputs.loss.backward()
            opt.step()
            opt.zero_grad()
            tr_loss += outputs.loss.detach()  # ok
            tr_loss_graph = tr_loss_graph + outputs.loss  # expect: TEN501
            all_logits.append(outputs.logits)  # expect: TEN501
            all_labels.append(labels)  # ok
            all_preds.append(outputs.logits.argmax(-1))  # ok
            hidden_means.append(outputs.hidden.mean().item())  # ok

    scored = []
    for ids, labels in data:
        s = score(model, ids, labels)
        s.loss.backward()
        opt.step()
        opt.zero_grad()
        scored.append(s)  # expect: TEN501

    print(round(tr_loss.item(), 3), len(all_logits), torch.cat(all_preds).shape, len(scored))


if __name__ == "__main__":
    main()
