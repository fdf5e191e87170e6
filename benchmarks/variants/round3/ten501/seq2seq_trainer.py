"""Trainer for a GRU encoder/decoder (attention-free) on toy translation pairs."""
import random

import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, vocab, emb=128, hidden=256):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb)
        self.rnn = nn.GRU(emb, hidden, batch_first=True)

    def forward(self, src):
        return self.rnn(self.embed(src))


class Decoder(nn.Module):
    def __init__(self, vocab, emb=128, hidden=256):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb)
        self.rnn = nn.GRU(emb, hidden, batch_first=True)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, tok, hidden, enc_out=None):
        out, hidden = self.rnn(self.embed(tok).unsqueeze(1), hidden)
        return self.out(out.squeeze(1)), hidden


class Seq2SeqTrainer:
    def __init__(self, encoder, decoder, pad_idx, lr=1e-3, teacher_forcing=0.5, device="cpu"):
        self.encoder = encoder.to(device)
        self.decoder = decoder.to(device)
        self.device = device
        self.teacher_forcing = teacher_forcing
        self.params = list(encoder.parameters()) + list(decoder.parameters())
        self.optimizer = torch.optim.Adam(self.params, lr=lr)
        self.criterion = nn.CrossEntropyLoss(ignore_index=pad_idx)
        self.history = {"train_loss": [], "val_loss": []}

    def _decode(self, enc_out, hidden, tgt, teacher_forcing):
        T = tgt.size(1)
        inp = tgt[:, 0]
        outputs = []
        for t in range(1, T):
            logits, hidden = self.decoder(inp, hidden, enc_out)
            outputs.append(logits)
            use_tf = random.random() < teacher_forcing
            inp = tgt[:, t] if use_tf else logits.argmax(-1)
        return torch.stack(outputs, dim=1)

    def _loss(self, logits, tgt):
        return self.criterion(logits.reshape(-1, logits.size(-1)), tgt[:, 1:].reshape(-1))

    def train_batch(self, src, tgt):
        self.encoder.train()
        self.decoder.train()
        self.optimizer.zero_grad()
        enc_out, hidden = self.encoder(src)
        logits = self._decode(enc_out, hidden, tgt, self.teacher_forcing)
        loss = self._loss(logits, tgt)
        loss.backward()
        nn.utils.clip_grad_norm_(self.params, 1.0)
        self.optimizer.step()
        return loss

    def train_epoch(self, loader):
        epoch_losses = []
        for src, tgt in loader:
            loss = self.train_batch(src.to(self.device), tgt.to(self.device))
            self.history["train_loss"].append(loss)  # expect: TEN501
            epoch_losses.append(loss.item())
        return sum(epoch_losses) / max(len(epoch_losses), 1)

    @torch.no_grad()
    def evaluate(self, loader):
        self.encoder.eval()
        self.decoder.eval()
        total, n = 0.0, 0
        for src, tgt in loader:
            src, tgt = src.to(self.device), tgt.to(self.device)
            enc_out, hidden = self.encoder(src)
            logits = self._decode(enc_out, hidden, tgt, teacher_forcing=0.0)
            total += self._loss(logits, tgt).item()
            n += 1
        val = total / max(n, 1)
        self.history["val_loss"].append(val)
        return val

    def fit(self, train_loader, val_loader, epochs=10):
        for epoch in range(epochs):
            tr = self.train_epoch(train_loader)
            va = self.evaluate(val_loader)
            print(f"epoch {epoch:02d} | train {tr:.3f} | val {va:.3f}")
        return self.history

    def plot_history(self, path="loss.png"):
        import matplotlib.pyplot as plt
        steps = [l.item() for l in self.history["train_loss"]]
        plt.figure(figsize=(6, 3))
        plt.plot(steps, lw=0.5)
        plt.xlabel("step")
        plt.ylabel("train loss")
        plt.tight_layout()
        plt.savefig(path)
