"""Seq2seq decoder with attention; per-batch outputs vs. attention maps kept for plots."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

V, H = 10, 16


class AttnDecoder(nn.Module):
    def __init__(self, keep_maps=True):
        super().__init__()
        self.emb = nn.Embedding(V, H)
        self.cell = nn.GRUCell(2 * H, H)
        self.out = nn.Linear(H, V)
        self.keep_maps = keep_maps
        self.attention_maps = []
        self.attention_maps_cpu = []

    def step(self, tok, h, enc):
        scores = torch.einsum("bh,bth->bt", h, enc)
        attn = scores.softmax(-1)
        if self.keep_maps:
            self.attention_maps.append(attn)  # expect: TEN501
        else:
            self.attention_maps_cpu.append(attn.detach().cpu())  # ok
        ctx = torch.einsum("bt,bth->bh", attn, enc)
        h = self.cell(torch.cat([self.emb(tok), ctx], -1), h)
        return self.out(h), h


encoder = nn.GRU(H, H, batch_first=True)
src_emb = nn.Embedding(V, H)
for keep in (True, False):
    torch.manual_seed(0)
    dec = AttnDecoder(keep_maps=keep)
    params = list(encoder.parameters()) + list(src_emb.parameters()) + list(dec.parameters())
    opt = torch.optim.Adam(params, lr=5e-3)
    for batch in range(4):
        src = torch.randint(0, V, (3, 6))
        tgt = src.flip(1)
        enc, h = encoder(src_emb(src))
        h = h[0]
        tok = torch.zeros(3, dtype=torch.long)
        step_logits = []
        for t in range(tgt.size(1)):
            logits, h = dec.step(tok, h, enc)
            step_logits.append(logits)  # ok
            tok = tgt[:, t]
        loss = F.cross_entropy(torch.stack(step_logits, 1).reshape(-1, V), tgt.reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("keep" if keep else "cpu", round(loss.item(), 4), len(dec.attention_maps), len(dec.attention_maps_cpu))
