"""GRU encoder-decoder with teacher forcing on a copy-reverse task."""
import math
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
random.seed(0)

V, H, T = 8, 16, 5
SOS = 0


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, H)
        self.rnn = nn.GRU(H, H, batch_first=True)

    def forward(self, src):
        _, h = self.rnn(self.emb(src))
        return h


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, H)
        self.cell = nn.GRUCell(H, H)
        self.out = nn.Linear(H, V)

    def forward_step(self, tok, h):
        h = self.cell(self.emb(tok), h)
        return self.out(h), h


enc, dec = Encoder(), Decoder()
opt = torch.optim.Adam(list(enc.parameters()) + list(dec.parameters()), lr=1e-2)
perplexities = []
perplexity_values = []
decoded_samples = []
for batch_i in range(8):
    src = torch.randint(1, V, (6, T))
    tgt = src.flip(1)
    h = enc(src).squeeze(0)
    tok = torch.full((6,), SOS, dtype=torch.long)
    step_logits, greedy = [], []
    for t in range(T):
        logits, h = dec.forward_step(tok, h)
        step_logits.append(logits)  # ok
        greedy.append(logits.argmax(-1))  # ok
        tok = tgt[:, t] if random.random() < 0.5 else logits.argmax(-1)
    logits = torch.stack(step_logits, 1)
    loss = F.cross_entropy(logits.reshape(-1, V), tgt.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    perplexities.append(torch.exp(loss))  # expect: TEN501
    perplexity_values.append(math.exp(loss.item()))  # ok
    decoded_samples.append(torch.stack(greedy, 1)[0].tolist())  # ok

print(perplexity_values[-1], decoded_samples[-1])
