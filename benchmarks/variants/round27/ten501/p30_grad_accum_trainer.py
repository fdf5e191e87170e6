"""Tiny transformer-encoder fine-tuning with gradient accumulation (Trainer class)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class TinyEncoderClassifier(nn.Module):
    def __init__(self, vocab=30, d=16, n_cls=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        layer = nn.TransformerEncoderLayer(d, 2, 32, dropout=0.0, batch_first=True)
        self.enc = nn.TransformerEncoder(layer, 1, enable_nested_tensor=False)
        self.cls = nn.Linear(d, n_cls)

    def forward(self, ids):
        return self.cls(self.enc(self.emb(ids)).mean(1))


class Trainer:
    def __init__(self, model, accum_steps=3):
        self.model = model
        self.accum = accum_steps
        self.opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
        self.train_losses = []
        self.train_losses_float = []

    def micro_batch(self, ids, labels):
        return F.cross_entropy(self.model(ids), labels) / self.accum

    def fit(self, n_updates):
        for update_idx in range(n_updates):
            micro_losses = []
            for _ in range(self.accum):
                ids = torch.randint(0, 30, (4, 7))
                labels = (ids[:, 0] > 15).long()
                micro_losses.append(self.micro_batch(ids, labels))  # ok
            loss = torch.stack(micro_losses).sum()
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            self.train_losses.append(loss)  # expect: TEN501
            self.train_losses_float.append(loss.item())  # ok
        return self


t = Trainer(TinyEncoderClassifier()).fit(5)
print([round(v, 4) for v in t.train_losses_float], t.train_losses[-1].requires_grad)
