"""GRU encoder-decoder with additive attention on a toy sequence-reversal task."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

PAD, BOS, VOCAB = 0, 1, 12


class Encoder(nn.Module):
    def __init__(self, emb=16, hid=32):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, emb, padding_idx=PAD)
        self.rnn = nn.GRU(emb, hid, batch_first=True)

    def forward(self, src):
        return self.rnn(self.emb(src))


class AttnDecoder(nn.Module):
    def __init__(self, emb=16, hid=32):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, emb, padding_idx=PAD)
        self.score = nn.Linear(2 * hid, 1)
        self.cell = nn.GRUCell(emb + hid, hid)
        self.out = nn.Linear(hid, VOCAB)

    def forward(self, tok, h, enc_out):
        expanded = h.unsqueeze(1).expand_as(enc_out)
        attn = F.softmax(self.score(torch.cat([expanded, enc_out], -1)).squeeze(-1), dim=-1)
        context = torch.bmm(attn.unsqueeze(1), enc_out).squeeze(1)
        h = self.cell(torch.cat([self.emb(tok), context], -1), h)
        return self.out(h), h, attn


def make_batch(bs=8, length=6):
    src = torch.randint(2, VOCAB, (bs, length))
    return src, src.flip(1)


def train(steps=10, tf_ratio=0.75):
    torch.manual_seed(0)
    random.seed(0)
    enc, dec = Encoder(), AttnDecoder()
    opt = torch.optim.Adam(list(enc.parameters()) + list(dec.parameters()), lr=5e-3)
    attention_maps, decoded = [], []
    epoch_loss, n_tokens_total = 0.0, 0
    for step in range(steps):
        src, tgt = make_batch()
        enc_out, h = enc(src)
        h = h.squeeze(0)
        tok = torch.full((src.size(0),), BOS, dtype=torch.long)
        logits_all, attns = [], []
        for t in range(tgt.size(1)):
            logits, h, attn = dec(tok, h, enc_out)
            logits_all.append(logits)  # ok
            attns.append(attn)  # ok
            teacher = random.random() < tf_ratio
            tok = tgt[:, t] if teacher else logits.argmax(-1)
        logits = torch.stack(logits_all, 1)
        mask = tgt != PAD
        loss = F.cross_entropy(logits[mask], tgt[mask])
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(list(enc.parameters()) + list(dec.parameters()), 1.0)
        opt.step()
        n_tokens = int(mask.sum().item())
        epoch_loss += loss.item() * n_tokens  # ok
        n_tokens_total += n_tokens  # ok
        attention_maps.append(torch.stack(attns, 1)[0])  # expect: TEN501
        decoded.extend(logits.argmax(-1)[0].tolist())  # ok
        tf_ratio = max(0.3, tf_ratio * 0.95)
    print(f"token loss {epoch_loss / n_tokens_total:.4f}; kept {len(attention_maps)} attention maps")
    print("last decode", decoded[-6:])


if __name__ == "__main__":
    train()
