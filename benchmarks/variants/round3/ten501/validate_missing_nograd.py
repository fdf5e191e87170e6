"""BiLSTM sentiment classifier: train + validate each epoch, keep best checkpoint."""
import torch
import torch.nn as nn
from sklearn.metrics import f1_score
from torch.nn.utils.rnn import pack_padded_sequence


class BiLSTMClassifier(nn.Module):
    def __init__(self, vocab_size, embed_dim=200, hidden=256, n_classes=3, dropout=0.3):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embed_dim, padding_idx=0)
        self.lstm = nn.LSTM(embed_dim, hidden, batch_first=True, bidirectional=True)
        self.drop = nn.Dropout(dropout)
        self.fc = nn.Linear(2 * hidden, n_classes)

    def forward(self, input_ids, lengths):
        emb = self.drop(self.embedding(input_ids))
        packed = pack_padded_sequence(emb, lengths.cpu(), batch_first=True, enforce_sorted=False)
        _, (h, _) = self.lstm(packed)
        h = torch.cat([h[-2], h[-1]], dim=1)
        return self.fc(self.drop(h))


def train_epoch(model, loader, criterion, optimizer, device):
    model.train()
    total = 0.0
    for batch in loader:
        input_ids = batch["input_ids"].to(device)
        labels = batch["labels"].to(device)
        optimizer.zero_grad()
        logits = model(input_ids, batch["lengths"])
        loss = criterion(logits, labels)
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        optimizer.step()
        total += loss.item()
    return total / len(loader)


def validate(model, loader, criterion, device):
    model.eval()
    val_loss = 0.0
    all_logits, all_labels = [], []
    for batch in loader:
        input_ids = batch["input_ids"].to(device)
        labels = batch["labels"].to(device)
        logits = model(input_ids, batch["lengths"])
        loss = criterion(logits, labels)
        val_loss += loss  # expect: TEN501
        all_logits.append(logits)  # expect: TEN501
        all_labels.append(labels)
    logits = torch.cat(all_logits)
    labels = torch.cat(all_labels)
    preds = logits.argmax(dim=1)
    acc = (preds == labels).float().mean().item()
    f1 = f1_score(labels.cpu().numpy(), preds.cpu().numpy(), average="macro")
    return val_loss.item() / len(loader), acc, f1


def run(model, train_loader, val_loader, epochs=15, lr=1e-3, ckpt="best.pt"):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model.to(device)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, mode="max", patience=2)
    best_f1 = 0.0
    for epoch in range(1, epochs + 1):
        tr_loss = train_epoch(model, train_loader, criterion, optimizer, device)
        va_loss, va_acc, va_f1 = validate(model, val_loader, criterion, device)
        scheduler.step(va_f1)
        print(f"[{epoch}] train {tr_loss:.4f} | val {va_loss:.4f} acc {va_acc:.3f} f1 {va_f1:.3f}")
        if va_f1 > best_f1:
            best_f1 = va_f1
            torch.save(model.state_dict(), ckpt)
    return best_f1
