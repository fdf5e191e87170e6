"""Transformer NMT (de->en, Multi30k): training epoch, validation and greedy decoding."""
import math
import time

import torch
import torch.nn as nn

from mt_data import PAD_IDX, BOS_IDX, EOS_IDX, build_iterators  # project data helpers


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, dropout=0.1, max_len=512):
        super().__init__()
        pos = torch.arange(max_len).unsqueeze(1)
        div = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, d_model)
        pe[:, 0::2] = torch.sin(pos * div)
        pe[:, 1::2] = torch.cos(pos * div)
        self.register_buffer("pe", pe.unsqueeze(0))
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        return self.dropout(x + self.pe[:, : x.size(1)])


class Seq2SeqTransformer(nn.Module):
    def __init__(self, src_vocab, tgt_vocab, d_model=512, nhead=8, layers=3, ff=2048, dropout=0.1):
        super().__init__()
        self.src_emb = nn.Embedding(src_vocab, d_model, padding_idx=PAD_IDX)
        self.tgt_emb = nn.Embedding(tgt_vocab, d_model, padding_idx=PAD_IDX)
        self.pos = PositionalEncoding(d_model, dropout)
        self.transformer = nn.Transformer(d_model, nhead, layers, layers, ff, dropout, batch_first=True)
        self.generator = nn.Linear(d_model, tgt_vocab)
        self.scale = math.sqrt(d_model)

    def encode(self, src):
        return self.transformer.encoder(self.pos(self.src_emb(src) * self.scale),
                                        src_key_padding_mask=src.eq(PAD_IDX))

    def decode(self, tgt, memory, src_pad_mask):
        causal = self.transformer.generate_square_subsequent_mask(tgt.size(1)).to(tgt.device)
        return self.transformer.decoder(self.pos(self.tgt_emb(tgt) * self.scale), memory, tgt_mask=causal,
                                        tgt_key_padding_mask=tgt.eq(PAD_IDX), memory_key_padding_mask=src_pad_mask)

    def forward(self, src, tgt_in):
        memory = self.encode(src)
        return self.generator(self.decode(tgt_in, memory, src.eq(PAD_IDX)))


def train_epoch(model, iterator, optimizer, criterion, device, clip=1.0):
    model.train()
    epoch_loss = 0.0
    for src, trg in iterator:
        src, trg = src.to(device), trg.to(device)
        logits = model(src, trg[:, :-1])
        loss = criterion(logits.reshape(-1, logits.size(-1)), trg[:, 1:].reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        optimizer.step()
        epoch_loss += loss.item()  # ok
    return epoch_loss / len(iterator)


def evaluate(model, iterator, criterion, device):
    model.eval()
    epoch_loss = 0.0
    n_tokens = 0
    for src, trg in iterator:
        src, trg = src.to(device), trg.to(device)
        logits = model(src, trg[:, :-1])
        gold = trg[:, 1:].reshape(-1)
        loss = criterion(logits.reshape(-1, logits.size(-1)), gold)
        non_pad = gold.ne(PAD_IDX).sum()
        epoch_loss += loss * non_pad  # expect: TEN501
        n_tokens += non_pad.item()  # ok
    return epoch_loss.item() / n_tokens


@torch.no_grad()
def greedy_decode(model, src, max_len=64):
    model.eval()
    memory = model.encode(src)
    ys = torch.full((src.size(0), 1), BOS_IDX, dtype=torch.long, device=src.device)
    finished = torch.zeros(src.size(0), dtype=torch.bool, device=src.device)
    for _ in range(max_len - 1):
        out = model.generator(model.decode(ys, memory, src.eq(PAD_IDX))[:, -1])
        next_word = out.argmax(dim=-1)
        ys = torch.cat([ys, next_word.unsqueeze(1)], dim=1)  # ok
        finished |= next_word.eq(EOS_IDX)
        if finished.all():
            break
    return ys


def main(epochs=18):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    train_iter, valid_iter, test_iter, src_vocab, tgt_vocab = build_iterators(batch_size=128)
    model = Seq2SeqTransformer(len(src_vocab), len(tgt_vocab)).to(device)
    for p in model.parameters():
        if p.dim() > 1:
            nn.init.xavier_uniform_(p)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4, betas=(0.9, 0.98), eps=1e-9)
    criterion = nn.CrossEntropyLoss(ignore_index=PAD_IDX, label_smoothing=0.1)

    best_valid = float("inf")
    for epoch in range(1, epochs + 1):
        start = time.time()
        train_loss = train_epoch(model, train_iter, optimizer, criterion, device)
        valid_loss = evaluate(model, valid_iter, criterion, device)
        print(f"Epoch {epoch:02d} | {time.time() - start:.0f}s | train {train_loss:.3f} "
              f"| val {valid_loss:.3f} (ppl {math.exp(valid_loss):.2f})")
        if valid_loss < best_valid:
            best_valid = valid_loss
            torch.save(model.state_dict(), "transformer_mt_best.pt")

    src, _ = next(iter(test_iter))
    hyp = greedy_decode(model, src[:4].to(device))
    itos = tgt_vocab.get_itos()
    for row in hyp.tolist():
        print(" ".join(itos[t] for t in row[1:] if t not in (EOS_IDX, PAD_IDX)))


if __name__ == "__main__":
    main()
