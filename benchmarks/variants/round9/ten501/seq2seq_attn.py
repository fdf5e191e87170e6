"""GRU encoder / Bahdanau-attention decoder for translation, trained with teacher forcing."""
import random
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

SOS, EOS, PAD = 1, 2, 0


class Encoder(nn.Module):
    def __init__(self, vocab, emb=256, hidden=512):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb, padding_idx=PAD)
        self.rnn = nn.GRU(emb, hidden, batch_first=True, bidirectional=True)
        self.bridge = nn.Linear(2 * hidden, hidden)

    def forward(self, src):
        out, h = self.rnn(self.emb(src))
        h = torch.tanh(self.bridge(torch.cat([h[0], h[1]], dim=-1))).unsqueeze(0)
        return out, h


class AttnDecoder(nn.Module):
    def __init__(self, vocab, emb=256, hidden=512):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb, padding_idx=PAD)
        self.W_q = nn.Linear(hidden, hidden)
        self.W_k = nn.Linear(2 * hidden, hidden)
        self.v = nn.Linear(hidden, 1, bias=False)
        self.rnn = nn.GRU(emb + 2 * hidden, hidden, batch_first=True)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, tok, hidden, enc_out, src_mask):
        scores = self.v(torch.tanh(self.W_q(hidden[-1]).unsqueeze(1) + self.W_k(enc_out))).squeeze(-1)
        attn = scores.masked_fill(~src_mask, float("-inf")).softmax(-1)
        ctx = torch.bmm(attn.unsqueeze(1), enc_out)
        x = torch.cat([self.emb(tok).unsqueeze(1), ctx], dim=-1)
        out, hidden = self.rnn(x, hidden)
        return self.out(out.squeeze(1)), hidden, attn


def train_epoch(encoder, decoder, loader, enc_opt, dec_opt, device, tf_ratio=0.5, clip=1.0):
    criterion = nn.CrossEntropyLoss(ignore_index=PAD)
    encoder.train()
    decoder.train()
    epoch_losses = []
    attn_maps = []
    start = time.time()
    for batch_idx, (src, tgt) in enumerate(loader):
        src, tgt = src.to(device), tgt.to(device)
        src_mask = src != PAD
        enc_out, hidden = encoder(src)

        dec_input = tgt[:, 0]
        loss = 0
        for t in range(1, tgt.size(1)):
            logits, hidden, attn = decoder(dec_input, hidden, enc_out, src_mask)
            loss = loss + criterion(logits, tgt[:, t])  # ok
            if batch_idx % 200 == 0:
                attn_maps.append(attn[0].detach().cpu())  # ok
            use_tf = random.random() < tf_ratio
            dec_input = tgt[:, t] if use_tf else logits.argmax(-1)

        enc_opt.zero_grad()
        dec_opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(encoder.parameters(), clip)
        nn.utils.clip_grad_norm_(decoder.parameters(), clip)
        enc_opt.step()
        dec_opt.step()

        epoch_losses.append(loss / (tgt.size(1) - 1))  # expect: TEN501
        if batch_idx % 100 == 0:
            print(f"  batch {batch_idx} loss {epoch_losses[-1].item():.3f} ({time.time() - start:.0f}s)")
    return torch.stack(epoch_losses).mean().item(), attn_maps


@torch.no_grad()
def greedy_translate(encoder, decoder, src, max_len=80):
    encoder.eval()
    decoder.eval()
    enc_out, hidden = encoder(src)
    tok = torch.full((src.size(0),), SOS, dtype=torch.long, device=src.device)
    outputs = []
    for _ in range(max_len):
        logits, hidden, _ = decoder(tok, hidden, enc_out, src != PAD)
        tok = logits.argmax(-1)
        outputs.append(tok)
        if (tok == EOS).all():
            break
    return torch.stack(outputs, dim=1)


def main(train_loader, src_vocab, tgt_vocab, epochs=15, device="cuda"):
    enc = Encoder(src_vocab).to(device)
    dec = AttnDecoder(tgt_vocab).to(device)
    enc_opt = torch.optim.Adam(enc.parameters(), lr=1e-3)
    dec_opt = torch.optim.Adam(dec.parameters(), lr=1e-3)
    for epoch in range(epochs):
        loss, _ = train_epoch(enc, dec, train_loader, enc_opt, dec_opt, device,
                              tf_ratio=max(0.2, 1.0 - epoch / epochs))
        print(f"epoch {epoch}: loss {loss:.4f}")
