"""GRU encoder-decoder with attention and teacher forcing on a copy task."""
import random

import torch
import torch.nn.functional as F
from torch import nn

V, H = 9, 16


class Seq2Seq(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, H)
        self.enc = nn.GRU(H, H, batch_first=True)
        self.dec = nn.GRUCell(2 * H, H)
        self.out = nn.Linear(H, V)

    def decode_step(self, tok, h, enc_out):
        scores = torch.einsum("bth,bh->bt", enc_out, h)
        attn = scores.softmax(-1)
        ctx = torch.einsum("bt,bth->bh", attn, enc_out)
        h = self.dec(torch.cat([self.emb(tok), ctx], -1), h)
        return self.out(h), h, attn


def train(epochs=2, steps=4, tf_ratio=0.5):
    random.seed(0)
    torch.manual_seed(0)
    model = Seq2Seq()
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    epoch_outputs, attn_history, pred_tokens, tf_log = [], [], [], []
    for epoch in range(epochs):
        for _ in range(steps):
            src = torch.randint(1, V, (4, 6))
            tgt = src.flip(1)
            enc_out, h = model.enc(model.emb(src))
            h = h.squeeze(0)
            tok = torch.zeros(4, dtype=torch.long)
            outputs = []
            use_tf = random.random() < tf_ratio
            for t in range(tgt.size(1)):
                logits, h, attn = model.decode_step(tok, h, enc_out)
                outputs.append(logits)  # ok
                tok = tgt[:, t] if use_tf else logits.argmax(-1)
            attn_history.append(attn)  # expect: TEN501
            logits_all = torch.stack(outputs, 1)
            loss = F.cross_entropy(logits_all.reshape(-1, V), tgt.reshape(-1))
            opt.zero_grad()
            loss.backward()
            opt.step()
            epoch_outputs.append(logits_all)  # expect: TEN501
            pred_tokens.append(logits_all.argmax(-1))  # ok
            tf_log.append(use_tf)  # ok
    acc = (torch.cat(pred_tokens) == tgt.repeat(len(pred_tokens), 1)).float().mean()
    return len(epoch_outputs), len(attn_history), tf_log, acc.item()


if __name__ == "__main__":
    print(train())
