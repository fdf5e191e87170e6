"""A tiny mixture-of-experts language model."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MoEFeedForward(nn.Module):
    def __init__(self, dim, n_experts=3):
        super().__init__()
        self.router = nn.Linear(dim, n_experts)
        self.experts = nn.ModuleList(nn.Linear(dim, dim) for _ in range(n_experts))
        self.aux_losses = []
        self.router_log = []
        self.last_probs = None

    def forward(self, h):
        probs = F.softmax(self.router(h), dim=-1)
        expert_out = torch.stack([e(h) for e in self.experts], dim=-1)
        out = (expert_out * probs.unsqueeze(-2)).sum(-1)
        load = probs.mean(dim=(0, 1))
        aux = (load * load).sum() * probs.shape[-1]
        self.aux_losses.append(aux)  # ok
        self.router_log.append(load)  # expect: TEN501
        self.last_probs = probs  # either
        return h + out


class TinyMoELM(nn.Module):
    def __init__(self, vocab=12, dim=8):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.ffn = MoEFeedForward(dim)
        self.head = nn.Linear(dim, vocab)

    def forward(self, tokens):
        return self.head(self.ffn(self.embed(tokens)))

    def lm_loss(self, tokens):
        logits = self(tokens[:, :-1])
        return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), tokens[:, 1:].reshape(-1))

    def pop_aux_loss(self):
        aux = torch.stack(self.ffn.aux_losses).sum()
        self.ffn.aux_losses.clear()
        return aux
