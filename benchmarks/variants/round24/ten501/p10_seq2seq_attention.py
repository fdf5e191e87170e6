"""GRU seq2seq with teacher forcing; the decoder keeps attention maps for visualisation."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
random.seed(0)
V, H, T = 11, 16, 5


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, H)
        self.gru = nn.GRU(H, H, batch_first=True)

    def forward(self, src):
        return self.gru(self.emb(src))


class AttnDecoder(nn.Module):
    def __init__(self, keep_maps=False):
        super().__init__()
        self.emb = nn.Embedding(V, H)
        self.gru = nn.GRUCell(2 * H, H)
        self.out = nn.Linear(H, V)
        self.keep_maps = keep_maps
        self.attn_maps = []
        self.attn_maps_cpu = []

    def forward(self, tok, hidden, enc_out):
        scores = torch.bmm(enc_out, hidden.unsqueeze(2)).squeeze(2)
        attn = F.softmax(scores, dim=1)
        if self.keep_maps:
            self.attn_maps.append(attn)  # expect: TEN501
        else:
            self.attn_maps_cpu.append(attn.detach().cpu())  # ok
        ctx = torch.bmm(attn.unsqueeze(1), enc_out).squeeze(1)
        hidden = self.gru(torch.cat([self.emb(tok), ctx], 1), hidden)
        return self.out(hidden), hidden


def train_pair(enc, dec, opt, src, tgt, tf_ratio=0.5):
    enc_out, h = enc(src)
    hidden = h[0]
    tok = torch.zeros(src.size(0), dtype=torch.long)
    loss = 0
    outputs = []
    for t in range(T):
        logits, hidden = dec(tok, hidden, enc_out)
        loss += F.cross_entropy(logits, tgt[:, t])  # ok
        outputs.append(logits)  # ok
        tok = tgt[:, t] if random.random() < tf_ratio else logits.argmax(1)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss, torch.stack(outputs, 1)


for keep in (True, False):
    enc, dec = Encoder(), AttnDecoder(keep_maps=keep)
    opt = torch.optim.Adam(list(enc.parameters()) + list(dec.parameters()), lr=1e-3)
    print_loss_total = 0
    epoch_loss = 0.0
    for it in range(4):
        src = torch.randint(1, V, (3, 6))
        tgt = torch.randint(1, V, (3, T))
        loss, outs = train_pair(enc, dec, opt, src, tgt)
        print_loss_total += loss / T  # expect: TEN501
        epoch_loss += loss.item() / T  # ok
    print(keep, float(print_loss_total), epoch_loss, len(dec.attn_maps), len(dec.attn_maps_cpu))
