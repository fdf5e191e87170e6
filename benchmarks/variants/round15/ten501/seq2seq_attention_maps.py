"""GRU encoder / attention decoder with teacher forcing; attention maps kept for plotting."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

ATTENTION_MAPS = []
DECODED_TOKENS = []


class Encoder(nn.Module):
    def __init__(self, vocab, hidden):
        super().__init__()
        self.embedding = nn.Embedding(vocab, hidden)
        self.gru = nn.GRU(hidden, hidden, batch_first=True)

    def forward(self, src):
        return self.gru(self.embedding(src))


class AttnDecoder(nn.Module):
    def __init__(self, vocab, hidden):
        super().__init__()
        self.embedding = nn.Embedding(vocab, hidden)
        self.attn = nn.Linear(2 * hidden, 1)
        self.gru = nn.GRU(2 * hidden, hidden, batch_first=True)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, token, hidden, enc_out):
        emb = self.embedding(token)
        query = hidden.transpose(0, 1).expand(-1, enc_out.size(1), -1)
        weights = F.softmax(self.attn(torch.cat([query, enc_out], -1)).squeeze(-1), dim=-1)
        ATTENTION_MAPS.append(weights)  # expect: TEN501
        context = torch.bmm(weights.unsqueeze(1), enc_out)
        output, hidden = self.gru(torch.cat([emb, context], -1), hidden)
        return self.out(output.squeeze(1)), hidden


def train_batch(encoder, decoder, src, tgt, enc_opt, dec_opt, tf_ratio=0.5):
    enc_opt.zero_grad()
    dec_opt.zero_grad()
    enc_out, hidden = encoder(src)
    token = torch.zeros(src.size(0), 1, dtype=torch.long)
    loss = 0
    for t in range(tgt.size(1)):
        logits, hidden = decoder(token, hidden, enc_out)
        loss += F.cross_entropy(logits, tgt[:, t])  # ok
        top1 = logits.argmax(-1)
        DECODED_TOKENS.append(top1)  # ok
        token = (tgt[:, t] if random.random() < tf_ratio else top1).unsqueeze(1)
    loss.backward()
    enc_opt.step()
    dec_opt.step()
    return loss.item() / tgt.size(1)


if __name__ == "__main__":
    random.seed(0)
    torch.manual_seed(0)
    enc, dec = Encoder(12, 8), AttnDecoder(12, 8)
    eo, do = torch.optim.Adam(enc.parameters(), 1e-2), torch.optim.Adam(dec.parameters(), 1e-2)
    epoch_losses = []
    for it in range(4):
        src, tgt = torch.randint(1, 12, (3, 5)), torch.randint(1, 12, (3, 4))
        epoch_losses.append(train_batch(enc, dec, src, tgt, eo, do))  # ok
    print(epoch_losses, len(ATTENTION_MAPS))
