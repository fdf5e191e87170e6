"""BiGRU text classifier on AG News with a shared batch-loss generator for train/val/test."""
import argparse

import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_sequence
from torch.utils.data import DataLoader
from torchtext.data.utils import get_tokenizer
from torchtext.datasets import AG_NEWS
from torchtext.vocab import build_vocab_from_iterator


class BiGRUClassifier(nn.Module):
    def __init__(self, vocab_size, emb_dim=128, hidden=256, n_classes=4, pad_idx=0):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, emb_dim, padding_idx=pad_idx)
        self.gru = nn.GRU(emb_dim, hidden, batch_first=True, bidirectional=True)
        self.drop = nn.Dropout(0.3)
        self.fc = nn.Linear(2 * hidden, n_classes)

    def forward(self, tokens, lengths):
        packed = pack_padded_sequence(self.emb(tokens), lengths.cpu(), batch_first=True, enforce_sorted=False)
        _, h = self.gru(packed)
        h = torch.cat([h[-2], h[-1]], dim=-1)
        return self.fc(self.drop(h))


def make_collate(vocab, tokenizer, pad_idx):
    def collate(batch):
        labels, seqs = [], []
        for label, text in batch:
            labels.append(label - 1)
            seqs.append(torch.tensor(vocab(tokenizer(text))[:256], dtype=torch.long))
        lengths = torch.tensor([max(len(s), 1) for s in seqs])
        return pad_sequence(seqs, batch_first=True, padding_value=pad_idx), lengths, torch.tensor(labels)
    return collate


def iter_batch_losses(model, loader, criterion, device):
    for tokens, lengths, labels in loader:
        tokens, labels = tokens.to(device), labels.to(device)
        logits = model(tokens, lengths)
        yield criterion(logits, labels), (logits.argmax(1) == labels).sum().item(), labels.size(0)


def run_validation(model, loader, criterion, device):
    model.eval()
    batch_losses, sizes, correct = [], [], 0
    for loss, n_correct, n in iter_batch_losses(model, loader, criterion, device):
        batch_losses.append(loss)  # expect: TEN501
        sizes.append(n)  # ok
        correct += n_correct  # ok
    weighted = sum(l * n for l, n in zip(batch_losses, sizes))
    return weighted.item() / sum(sizes), correct / sum(sizes)


def run_test(model, loader, criterion, device):
    model.eval()
    test_losses, correct, total = [], 0, 0
    with torch.inference_mode():
        for loss, n_correct, n in iter_batch_losses(model, loader, criterion, device):
            test_losses.append(loss * n)  # ok
            correct += n_correct
            total += n
    return torch.stack(test_losses).sum().item() / total, correct / total


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--bs", type=int, default=64)
    args = parser.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    tokenizer = get_tokenizer("basic_english")
    vocab = build_vocab_from_iterator((tokenizer(t) for _, t in AG_NEWS(split="train")),
                                      specials=["<pad>", "<unk>"], min_freq=3)
    vocab.set_default_index(vocab["<unk>"])
    pad_idx = vocab["<pad>"]
    collate = make_collate(vocab, tokenizer, pad_idx)

    train_list = list(AG_NEWS(split="train"))
    n_val = len(train_list) // 20
    val_list, train_list = train_list[:n_val], train_list[n_val:]
    train_dl = DataLoader(train_list, batch_size=args.bs, shuffle=True, collate_fn=collate)
    val_dl = DataLoader(val_list, batch_size=256, collate_fn=collate)
    test_dl = DataLoader(list(AG_NEWS(split="test")), batch_size=256, collate_fn=collate)

    model = BiGRUClassifier(len(vocab), pad_idx=pad_idx).to(device)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

    for epoch in range(args.epochs):
        model.train()
        train_losses = []
        for step, (loss, _, _) in enumerate(iter_batch_losses(model, train_dl, criterion, device)):
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            train_losses.append(loss.item())  # ok
            if step % 500 == 0:
                print(f"epoch {epoch} step {step} loss {sum(train_losses[-500:]) / len(train_losses[-500:]):.4f}")
        val_loss, val_acc = run_validation(model, val_dl, criterion, device)
        print(f"epoch {epoch}: val loss {val_loss:.4f} acc {val_acc:.4f}")

    test_loss, test_acc = run_test(model, test_dl, criterion, device)
    print(f"test loss {test_loss:.4f} acc {test_acc:.4f}")


if __name__ == "__main__":
    main()
