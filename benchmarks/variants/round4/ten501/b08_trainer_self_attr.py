import logging

import torch
import torch.nn as nn
import torch.nn.functional as F

log = logging.getLogger(__name__)


class TextCNN(nn.Module):
    def __init__(self, vocab=5000, emb=128, n_classes=5):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb, padding_idx=0)
        self.convs = nn.ModuleList([nn.Conv1d(emb, 100, k) for k in (3, 4, 5)])
        self.fc = nn.Linear(300, n_classes)

    def forward(self, tokens):
        x = self.emb(tokens).transpose(1, 2)
        x = torch.cat([F.relu(c(x)).amax(dim=2) for c in self.convs], dim=1)
        return self.fc(F.dropout(x, 0.5, self.training))


class Trainer:
    def __init__(self, model, lr=1e-3, device="cpu"):
        self.model = model.to(device)
        self.device = device
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.epoch_loss = 0.0
        self.step_count = 0
        self.best_loss = float("inf")

    def _train_step(self, tokens, labels):
        tokens, labels = tokens.to(self.device), labels.to(self.device)
        logits = self.model(tokens)
        loss = F.cross_entropy(logits, labels, label_smoothing=0.1)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.epoch_loss += loss  # expect: TEN501
        self.step_count += 1  # ok
        return logits

    def train_epoch(self, loader):
        self.model.train()
        self.epoch_loss = 0.0
        self.step_count = 0
        for tokens, labels in loader:
            self._train_step(tokens, labels)
        avg = self.epoch_loss / max(self.step_count, 1)
        if avg < self.best_loss:
            self.best_loss = float(avg)
        return avg

    def fit(self, loader, epochs):
        for epoch in range(epochs):
            avg = self.train_epoch(loader)
            log.info("epoch %d avg loss %.4f", epoch, float(avg))
            print(f"epoch {epoch}: {float(avg):.4f}")


if __name__ == "__main__":
    loader = [(torch.randint(1, 5000, (32, 40)), torch.randint(0, 5, (32,))) for _ in range(25)]
    Trainer(TextCNN()).fit(loader, epochs=2)
