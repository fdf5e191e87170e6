"""Fine-tune a BERT-style encoder for sequence classification (SST-2)."""
import argparse

import numpy as np
import torch
from datasets import load_dataset
from sklearn.metrics import f1_score
from torch.utils.data import DataLoader
from transformers import (AutoModelForSequenceClassification, AutoTokenizer,
                          DataCollatorWithPadding, get_linear_schedule_with_warmup)


def make_loaders(tokenizer, batch_size):
    raw = load_dataset("glue", "sst2")
    tok = raw.map(lambda b: tokenizer(b["sentence"], truncation=True, max_length=128), batched=True)
    tok = tok.remove_columns(["sentence", "idx"]).rename_column("label", "labels")
    tok.set_format("torch")
    collate = DataCollatorWithPadding(tokenizer)
    return (DataLoader(tok["train"], batch_size=batch_size, shuffle=True, collate_fn=collate),
            DataLoader(tok["validation"], batch_size=128, collate_fn=collate),
            DataLoader(tok["test"], batch_size=128, collate_fn=collate))


def train_one_epoch(model, loader, optimizer, scheduler, device, log_every=100):
    model.train()
    running, n_seen = 0.0, 0
    for step, batch in enumerate(loader):
        batch = {k: v.to(device) for k, v in batch.items()}
        out = model(**batch)
        loss = out.loss
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        scheduler.step()
        optimizer.zero_grad()
        running += loss.item() * batch["labels"].size(0)  # ok
        n_seen += batch["labels"].size(0)
        if step % log_every == 0:
            print(f"  step {step} loss {running / n_seen:.4f}")
    return running / n_seen


def evaluate(model, loader, device):
    model.eval()
    all_probs, all_labels = [], []
    for batch in loader:
        batch = {k: v.to(device) for k, v in batch.items()}
        labels = batch.pop("labels")
        logits = model(**batch).logits
        all_probs.append(logits.softmax(-1))  # expect: TEN501
        all_labels.append(labels)  # ok
    probs = torch.cat(all_probs)
    labels = torch.cat(all_labels)
    preds = probs.argmax(-1)
    acc = (preds == labels).float().mean().item()
    f1 = f1_score(labels.cpu().numpy(), preds.cpu().numpy())
    return acc, f1


@torch.no_grad()
def predict(model, loader, device):
    model.eval()
    out = []
    for batch in loader:
        batch = {k: v.to(device) for k, v in batch.items() if k != "labels"}
        out.append(model(**batch).logits.softmax(-1).cpu())  # ok
    return torch.cat(out)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--model", default="bert-base-uncased")
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--lr", type=float, default=2e-5)
    p.add_argument("--batch-size", type=int, default=32)
    args = p.parse_args()

    device = "cuda" if torch.cuda.is_available() else "cpu"
    tokenizer = AutoTokenizer.from_pretrained(args.model)
    model = AutoModelForSequenceClassification.from_pretrained(args.model, num_labels=2).to(device)
    train_loader, val_loader, test_loader = make_loaders(tokenizer, args.batch_size)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    total = len(train_loader) * args.epochs
    scheduler = get_linear_schedule_with_warmup(optimizer, int(0.06 * total), total)

    best = 0.0
    for epoch in range(args.epochs):
        loss = train_one_epoch(model, train_loader, optimizer, scheduler, device)
        acc, f1 = evaluate(model, val_loader, device)
        print(f"epoch {epoch}: train loss {loss:.4f} | val acc {acc:.4f} f1 {f1:.4f}")
        if acc > best:
            best = acc
            model.save_pretrained("sst2-best")
    probs = predict(model, test_loader, device)
    np.save("sst2_test_probs.npy", probs.numpy())


if __name__ == "__main__":
    main()
