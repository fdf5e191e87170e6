"""GRU seq2seq with teacher forcing; decoder outputs are concatenated for the loss."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

SOS, EOS, PAD = 1, 2, 0


class Seq2Seq(nn.Module):
    def __init__(self, src_vocab=200, tgt_vocab=200, emb=64, hidden=128):
        super().__init__()
        self.src_emb = nn.Embedding(src_vocab, emb, padding_idx=PAD)
        self.tgt_emb = nn.Embedding(tgt_vocab, emb, padding_idx=PAD)
        self.encoder = nn.GRU(emb, hidden, batch_first=True)
        self.decoder = nn.GRUCell(emb, hidden)
        self.out = nn.Linear(hidden, tgt_vocab)

    def forward(self, src, tgt, teacher_forcing=0.5):
        _, h = self.encoder(self.src_emb(src))
        h = h.squeeze(0)
        bs, T = tgt.shape
        inp = torch.full((bs,), SOS, dtype=torch.long, device=src.device)
        outputs = torch.empty(bs, 0, self.out.out_features, device=src.device)
        for t in range(T):
            h = self.decoder(self.tgt_emb(inp), h)
            step_logits = self.out(h)
            outputs = torch.cat((outputs, step_logits.unsqueeze(1)), dim=1)  # ok
            use_tf = random.random() < teacher_forcing
            inp = tgt[:, t] if use_tf else step_logits.argmax(-1)
        return outputs


def train(model, pairs, epochs=5, clip=1.0):
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        model.train()
        epoch_loss = 0.0
        for src, tgt in pairs:
            logits = model(src, tgt)
            loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), tgt.reshape(-1), ignore_index=PAD)
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), clip)
            opt.step()
            epoch_loss += loss.item()  # ok
        print(f"epoch {epoch}: loss {epoch_loss / len(pairs):.4f}")


def make_pairs(n, bs=16, L=10):
    pairs = []
    for _ in range(n):
        src = torch.randint(3, 200, (bs, L))
        tgt = torch.cat([src.flip(1)[:, : L - 1], torch.full((bs, 1), EOS)], dim=1)
        pairs.append((src, tgt))
    return pairs


if __name__ == "__main__":
    train(Seq2Seq(), make_pairs(40), epochs=2)
