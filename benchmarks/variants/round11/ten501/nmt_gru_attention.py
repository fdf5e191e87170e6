"""GRU encoder-decoder with additive attention, teacher forcing."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

PAD, BOS, EOS = 0, 1, 2


class Encoder(nn.Module):
    def __init__(self, vocab, d=256):
        super().__init__()
        self.emb = nn.Embedding(vocab, d, padding_idx=PAD)
        self.rnn = nn.GRU(d, d, batch_first=True, bidirectional=True)
        self.bridge = nn.Linear(2 * d, d)

    def forward(self, src):
        out, h = self.rnn(self.emb(src))
        return out, torch.tanh(self.bridge(torch.cat([h[0], h[1]], -1)))


class Decoder(nn.Module):
    def __init__(self, vocab, d=256):
        super().__init__()
        self.emb = nn.Embedding(vocab, d, padding_idx=PAD)
        self.attn_q = nn.Linear(d, d)
        self.attn_k = nn.Linear(2 * d, d)
        self.attn_v = nn.Linear(d, 1)
        self.cell = nn.GRUCell(d + 2 * d, d)
        self.out = nn.Linear(d, vocab)

    def step(self, tok, h, enc_out, src_mask):
        scores = self.attn_v(torch.tanh(self.attn_q(h)[:, None] + self.attn_k(enc_out))).squeeze(-1)
        alpha = scores.masked_fill(~src_mask, float("-inf")).softmax(-1)
        ctx = (alpha[..., None] * enc_out).sum(1)
        h = self.cell(torch.cat([self.emb(tok), ctx], -1), h)
        return self.out(h), h, alpha


def train_batch(enc, dec, opt, src, tgt, tf_ratio=0.5):
    enc_out, h = enc(src)
    mask = src != PAD
    tok = tgt[:, 0]
    loss = 0.0
    n_tok = 0
    attn_maps = []
    for t in range(1, tgt.size(1)):
        logits, h, alpha = dec.step(tok, h, enc_out, mask)
        loss = loss + F.cross_entropy(logits, tgt[:, t], ignore_index=PAD, reduction="sum")  # ok
        n_tok += int((tgt[:, t] != PAD).sum())  # ok
        attn_maps.append(alpha)  # ok
        tok = tgt[:, t] if random.random() < tf_ratio else logits.argmax(-1)
    loss = loss / max(n_tok, 1)
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(list(enc.parameters()) + list(dec.parameters()), 1.0)
    opt.step()
    return loss, torch.stack(attn_maps, 1)


def train(enc, dec, loader, epochs=10):
    opt = torch.optim.Adam(list(enc.parameters()) + list(dec.parameters()), lr=1e-3)
    loss_curve = torch.zeros(0)
    entropy_curve = []
    for epoch in range(epochs):
        for src, tgt in loader:
            loss, attn = train_batch(enc, dec, opt, src, tgt)
            loss_curve = torch.stack([*loss_curve, loss])  # expect: TEN501
            ent = -(attn.clamp_min(1e-9).log() * attn).sum(-1).mean()
            entropy_curve.append(ent.item())  # ok
        print(epoch, loss_curve[-len(loader):].mean().item())
    return loss_curve


@torch.no_grad()
def greedy_translate(enc, dec, src, max_len=60):
    enc_out, h = enc(src)
    tok = torch.full((src.size(0),), BOS, dtype=torch.long)
    outputs = []
    for _ in range(max_len):
        logits, h, _ = dec.step(tok, h, enc_out, src != PAD)
        tok = logits.argmax(-1)
        outputs.append(tok)  # ok
        if (tok == EOS).all():
            break
    return torch.stack(outputs, 1)
