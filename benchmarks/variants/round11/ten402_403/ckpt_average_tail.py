"""Average the weights of the last N evaluation points (checkpoint averaging, NMT style)."""
from collections import deque

import torch
import torch.nn as nn


class Seq2SeqToy(nn.Module):
    def __init__(self, vocab=500, d=64):
        super().__init__()
        self.src_emb = nn.Embedding(vocab, d)
        self.tgt_emb = nn.Embedding(vocab, d)
        self.core = nn.Transformer(d_model=d, nhead=4, num_encoder_layers=2, num_decoder_layers=2,
                                   dim_feedforward=128, batch_first=True)
        self.proj = nn.Linear(d, vocab)

    def forward(self, src, tgt):
        mask = self.core.generate_square_subsequent_mask(tgt.size(1))
        h = self.core(self.src_emb(src), self.tgt_emb(tgt), tgt_mask=mask)
        return self.proj(h)


def average(states):
    out = {}
    for key, first in states[0].items():
        if first.is_floating_point():
            out[key] = torch.stack([s[key] for s in states], 0).mean(0)
        else:
            out[key] = first
    return out


def train(total_steps=2000, eval_every=200, keep_last=5):
    model = Seq2SeqToy()
    opt = torch.optim.Adam(model.parameters(), lr=3e-4, betas=(0.9, 0.98))
    recent = deque(maxlen=keep_last)
    for step in range(1, total_steps + 1):
        src = torch.randint(1, 500, (16, 20))
        tgt = torch.randint(1, 500, (16, 21))
        logits = model(src, tgt[:, :-1])
        loss = nn.functional.cross_entropy(logits.transpose(1, 2), tgt[:, 1:])
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % eval_every == 0:
            recent.append({k: v.detach() for k, v in model.state_dict().items()})  # expect: TEN402
    model.load_state_dict(average(list(recent)))
    return model


if __name__ == "__main__":
    train(400, 100, 3)
