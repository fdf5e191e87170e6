"""Fine-tune DistilBERT on SST-2 with a plain PyTorch loop (no Trainer)."""
import argparse

import torch
from torch.optim import AdamW
from torch.utils.data import DataLoader
from datasets import load_dataset
from transformers import (
    AutoModelForSequenceClassification,
    AutoTokenizer,
    DataCollatorWithPadding,
    get_linear_schedule_with_warmup,
)


def build_loaders(tokenizer, batch_size):
    raw = load_dataset("glue", "sst2")

    def tokenize(examples):
        return tokenizer(examples["sentence"], truncation=True, max_length=128)

    ds = raw.map(tokenize, batched=True)
    ds = ds.remove_columns(["sentence", "idx"]).rename_column("label", "labels")
    ds.set_format("torch")
    collate = DataCollatorWithPadding(tokenizer)
    train_dl = DataLoader(ds["train"], batch_size=batch_size, shuffle=True, collate_fn=collate)
    val_dl = DataLoader(ds["validation"], batch_size=64, collate_fn=collate)
    return train_dl, val_dl


@torch.no_grad()
def evaluate(model, loader, device):
    model.eval()
    eval_loss = 0.0
    n_correct, n_total = 0, 0
    for batch in loader:
        batch = {k: v.to(device) for k, v in batch.items()}
        outputs = model(**batch)
        eval_loss += outputs.loss  # ok
        n_correct += (outputs.logits.argmax(-1) == batch["labels"]).sum().item()
        n_total += batch["labels"].numel()
    model.train()
    return (eval_loss / len(loader)).item(), n_correct / n_total


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="distilbert-base-uncased")
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--bs", type=int, default=32)
    parser.add_argument("--lr", type=float, default=2e-5)
    parser.add_argument("--log_every", type=int, default=100)
    args = parser.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    tokenizer = AutoTokenizer.from_pretrained(args.model)
    model = AutoModelForSequenceClassification.from_pretrained(args.model, num_labels=2).to(device)
    train_dl, val_dl = build_loaders(tokenizer, args.bs)

    no_decay = ["bias", "LayerNorm.weight"]
    grouped = [
        {"params": [p for n, p in model.named_parameters() if not any(nd in n for nd in no_decay)], "weight_decay": 0.01},
        {"params": [p for n, p in model.named_parameters() if any(nd in n for nd in no_decay)], "weight_decay": 0.0},
    ]
    optimizer = AdamW(grouped, lr=args.lr)
    total_steps = args.epochs * len(train_dl)
    scheduler = get_linear_schedule_with_warmup(optimizer, int(0.06 * total_steps), total_steps)

    train_losses = []
    train_logits = []
    global_step = 0
    for epoch in range(args.epochs):
        model.train()
        for step, batch in enumerate(train_dl):
            batch = {k: v.to(device) for k, v in batch.items()}
            outputs = model(**batch)
            loss = outputs.loss
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()

            train_losses.append(outputs.loss)  # expect: TEN501
            train_logits.append(outputs.logits.detach().cpu())  # ok
            global_step += 1
            if global_step % args.log_every == 0:
                recent = torch.stack(train_losses[-args.log_every:]).mean().item()
                print(f"step {global_step} lr {scheduler.get_last_lr()[0]:.2e} loss {recent:.4f}")

        val_loss, val_acc = evaluate(model, val_dl, device)
        print(f"epoch {epoch}: val_loss={val_loss:.4f} val_acc={val_acc:.4f}")

    model.save_pretrained("out/sst2-distilbert")
    tokenizer.save_pretrained("out/sst2-distilbert")


if __name__ == "__main__":
    main()
