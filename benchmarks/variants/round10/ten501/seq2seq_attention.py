"""GRU encoder-decoder with Bahdanau attention for De->En translation (Multi30k)."""
import math
import random
import time

import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, input_dim, emb_dim, enc_hid_dim, dec_hid_dim, dropout):
        super().__init__()
        self.embedding = nn.Embedding(input_dim, emb_dim)
        self.rnn = nn.GRU(emb_dim, enc_hid_dim, bidirectional=True)
        self.fc = nn.Linear(enc_hid_dim * 2, dec_hid_dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, src):
        embedded = self.dropout(self.embedding(src))
        outputs, hidden = self.rnn(embedded)
        hidden = torch.tanh(self.fc(torch.cat((hidden[-2], hidden[-1]), dim=1)))
        return outputs, hidden


class Attention(nn.Module):
    def __init__(self, enc_hid_dim, dec_hid_dim):
        super().__init__()
        self.attn = nn.Linear(enc_hid_dim * 2 + dec_hid_dim, dec_hid_dim)
        self.v = nn.Linear(dec_hid_dim, 1, bias=False)

    def forward(self, hidden, encoder_outputs):
        src_len = encoder_outputs.shape[0]
        hidden = hidden.unsqueeze(1).repeat(1, src_len, 1)
        encoder_outputs = encoder_outputs.permute(1, 0, 2)
        energy = torch.tanh(self.attn(torch.cat((hidden, encoder_outputs), dim=2)))
        return F.softmax(self.v(energy).squeeze(2), dim=1)


class Decoder(nn.Module):
    def __init__(self, output_dim, emb_dim, enc_hid_dim, dec_hid_dim, dropout, attention):
        super().__init__()
        self.output_dim = output_dim
        self.attention = attention
        self.embedding = nn.Embedding(output_dim, emb_dim)
        self.rnn = nn.GRU(enc_hid_dim * 2 + emb_dim, dec_hid_dim)
        self.fc_out = nn.Linear(enc_hid_dim * 2 + dec_hid_dim + emb_dim, output_dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, inp, hidden, encoder_outputs):
        embedded = self.dropout(self.embedding(inp.unsqueeze(0)))
        a = self.attention(hidden, encoder_outputs).unsqueeze(1)
        weighted = torch.bmm(a, encoder_outputs.permute(1, 0, 2)).permute(1, 0, 2)
        output, hidden = self.rnn(torch.cat((embedded, weighted), dim=2), hidden.unsqueeze(0))
        prediction = self.fc_out(torch.cat((output.squeeze(0), weighted.squeeze(0), embedded.squeeze(0)), dim=1))
        return prediction, hidden.squeeze(0)


class Seq2Seq(nn.Module):
    def __init__(self, encoder, decoder, pad_idx):
        super().__init__()
        self.encoder = encoder
        self.decoder = decoder
        self.pad_idx = pad_idx

    def forward(self, src, trg, criterion, teacher_forcing_ratio=0.5):
        """Runs the decoder step by step and returns the token-averaged loss."""
        trg_len = trg.shape[0]
        encoder_outputs, hidden = self.encoder(src)
        inp = trg[0, :]
        loss = 0.0
        for t in range(1, trg_len):
            output, hidden = self.decoder(inp, hidden, encoder_outputs)
            loss = loss + criterion(output, trg[t])  # ok
            teacher_force = random.random() < teacher_forcing_ratio
            inp = trg[t] if teacher_force else output.argmax(1)
        return loss / (trg_len - 1)


def train(model, iterator, optimizer, criterion, clip, teacher_forcing_ratio):
    model.train()
    epoch_loss = 0
    for i, batch in enumerate(iterator):
        src, trg = batch.src, batch.trg
        optimizer.zero_grad()
        loss = model(src, trg, criterion, teacher_forcing_ratio)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        optimizer.step()
        epoch_loss += loss  # expect: TEN501
    return float(epoch_loss) / len(iterator)


def evaluate(model, iterator, criterion):
    model.eval()
    epoch_loss = 0
    with torch.no_grad():
        for batch in iterator:
            loss = model(batch.src, batch.trg, criterion, 0.0)
            epoch_loss += loss.item()
    return epoch_loss / len(iterator)


def run(model, train_iterator, valid_iterator, n_epochs=10, clip=1.0, tf_start=1.0, tf_end=0.25):
    pad_idx = model.pad_idx
    criterion = nn.CrossEntropyLoss(ignore_index=pad_idx)
    optimizer = torch.optim.Adam(model.parameters())
    best_valid_loss = float("inf")
    tf_schedule = []
    for epoch in range(n_epochs):
        tf_ratio = tf_start + (tf_end - tf_start) * epoch / max(n_epochs - 1, 1)
        tf_schedule.append(tf_ratio)  # ok
        start = time.time()
        train_loss = train(model, train_iterator, optimizer, criterion, clip, tf_ratio)
        valid_loss = evaluate(model, valid_iterator, criterion)
        if valid_loss < best_valid_loss:
            best_valid_loss = valid_loss
            torch.save(model.state_dict(), "seq2seq-attn.pt")
        print(f"Epoch {epoch + 1:02d} | {time.time() - start:.0f}s | tf {tf_ratio:.2f}")
        print(f"\tTrain Loss: {train_loss:.3f} | Train PPL: {math.exp(train_loss):7.3f}")
        print(f"\t Val. Loss: {valid_loss:.3f} |  Val. PPL: {math.exp(valid_loss):7.3f}")
    return tf_schedule
