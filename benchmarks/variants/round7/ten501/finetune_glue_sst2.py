import argparse
import math
import random

import numpy as np
import torch
from datasets import load_dataset
from sklearn.metrics import accuracy_score, f1_score
from torch.utils.data import DataLoader
from transformers import (
    AutoModelForSequenceClassification,
    AutoTokenizer,
    DataCollatorWithPadding,
    get_linear_schedule_with_warmup,
)


def set_seed(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.cuda.manual_seed_all(seed)


def build_dataloaders(tokenizer, batch_size, max_length=128):
    raw = load_dataset("glue", "sst2")

    def tokenize(examples):
        return tokenizer(examples["sentence"], truncation=True, max_length=max_length)

    tokenized = raw.map(tokenize, batched=True, remove_columns=["sentence", "idx"])
    tokenized = tokenized.rename_column("label", "labels")
    tokenized.set_format("torch")
    collator = DataCollatorWithPadding(tokenizer)
    train_dl = DataLoader(tokenized["train"], shuffle=True, batch_size=batch_size, collate_fn=collator)
    eval_dl = DataLoader(tokenized["validation"], batch_size=64, collate_fn=collator)
    return train_dl, eval_dl


def evaluate(model, eval_dataloader, device):
    model.eval()
    all_logits = []
    all_labels = []
    eval_loss = 0.0
    for batch in eval_dataloader:
        batch = {k: v.to(device) for k, v in batch.items()}
        outputs = model(**batch)
        eval_loss += outputs.loss.item()  # ok
        all_logits.append(outputs.logits)  # expect: TEN501
        all_labels.append(batch["labels"])  # ok
    logits = torch.cat(all_logits)
    labels = torch.cat(all_labels).cpu().numpy()
    preds = logits.argmax(dim=-1).cpu().numpy()
    model.train()
    return {
        "eval_loss": eval_loss / len(eval_dataloader),
        "accuracy": accuracy_score(labels, preds),
        "f1": f1_score(labels, preds),
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_name", default="bert-base-uncased")
    parser.add_argument("--lr", type=float, default=2e-5)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch_size", type=int, default=32)
    parser.add_argument("--grad_accum", type=int, default=1)
    parser.add_argument("--warmup_ratio", type=float, default=0.06)
    parser.add_argument("--eval_steps", type=int, default=500)
    parser.add_argument("--seed", type=int, default=42)
    args = parser.parse_args()

    set_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    tokenizer = AutoTokenizer.from_pretrained(args.model_name)
    model = AutoModelForSequenceClassification.from_pretrained(args.model_name, num_labels=2).to(device)
    train_dl, eval_dl = build_dataloaders(tokenizer, args.batch_size)

    no_decay = ["bias", "LayerNorm.weight"]
    grouped = [
        {"params": [p for n, p in model.named_parameters() if not any(nd in n for nd in no_decay)], "weight_decay": 0.01},
        {"params": [p for n, p in model.named_parameters() if any(nd in n for nd in no_decay)], "weight_decay": 0.0},
    ]
    optimizer = torch.optim.AdamW(grouped, lr=args.lr)
    steps_per_epoch = math.ceil(len(train_dl) / args.grad_accum)
    total_steps = steps_per_epoch * args.epochs
    scheduler = get_linear_schedule_with_warmup(optimizer, int(args.warmup_ratio * total_steps), total_steps)

    global_step = 0
    tr_loss = torch.tensor(0.0, device=device)
    logging_loss = 0.0
    model.train()
    for epoch in range(args.epochs):
        for step, batch in enumerate(train_dl):
            batch = {k: v.to(device) for k, v in batch.items()}
            outputs = model(**batch)
            loss = outputs.loss / args.grad_accum
            loss.backward()
            tr_loss += loss.detach()  # ok
            if (step + 1) % args.grad_accum == 0:
                torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
                optimizer.step()
                scheduler.step()
                optimizer.zero_grad()
                global_step += 1
                if global_step % 50 == 0:
                    cur = tr_loss.item()
                    print(f"step {global_step} lr {scheduler.get_last_lr()[0]:.2e} loss {(cur - logging_loss) / 50:.4f}")
                    logging_loss = cur
                if global_step % args.eval_steps == 0:
                    print(evaluate(model, eval_dl, device))
    print("final", evaluate(model, eval_dl, device))
    model.save_pretrained("out/sst2")
    tokenizer.save_pretrained("out/sst2")


if __name__ == "__main__":
    main()
