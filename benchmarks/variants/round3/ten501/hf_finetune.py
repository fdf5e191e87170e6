#!/usr/bin/env python
# Fine-tune a BERT-style model on GLUE/MRPC without the Trainer API.
import argparse

import evaluate
import torch
from datasets import load_dataset
from torch.utils.data import DataLoader
from tqdm.auto import tqdm
from transformers import (AutoModelForSequenceClassification, AutoTokenizer,
                          DataCollatorWithPadding, get_scheduler)

parser = argparse.ArgumentParser()
parser.add_argument("--model", default="bert-base-cased")
parser.add_argument("--epochs", type=int, default=3)
parser.add_argument("--lr", type=float, default=5e-5)
parser.add_argument("--bs", type=int, default=8)
args = parser.parse_args()

raw = load_dataset("glue", "mrpc")
tokenizer = AutoTokenizer.from_pretrained(args.model)


def tokenize_function(example):
    return tokenizer(example["sentence1"], example["sentence2"], truncation=True)


tokenized = raw.map(tokenize_function, batched=True)
tokenized = tokenized.remove_columns(["sentence1", "sentence2", "idx"])
tokenized = tokenized.rename_column("label", "labels")
tokenized.set_format("torch")
collator = DataCollatorWithPadding(tokenizer=tokenizer)

train_dataloader = DataLoader(tokenized["train"], shuffle=True, batch_size=args.bs, collate_fn=collator)
eval_dataloader = DataLoader(tokenized["validation"], batch_size=32, collate_fn=collator)

device = torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu")
model = AutoModelForSequenceClassification.from_pretrained(args.model, num_labels=2).to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
num_training_steps = args.epochs * len(train_dataloader)
lr_scheduler = get_scheduler("linear", optimizer=optimizer, num_warmup_steps=0,
                             num_training_steps=num_training_steps)

progress_bar = tqdm(range(num_training_steps))
hist = []
for epoch in range(args.epochs):
    model.train()
    total_loss = 0
    for step, batch in enumerate(train_dataloader):
        batch = {k: v.to(device) for k, v in batch.items()}
        outputs = model(**batch)
        outputs["loss"].backward()

        optimizer.step()
        lr_scheduler.step()
        optimizer.zero_grad()

        hist.append(outputs["loss"])  # expect: TEN501
        total_loss = total_loss + outputs.loss  # expect: TEN501
        progress_bar.update(1)
        if step % 100 == 0:
            progress_bar.set_postfix(loss=f"{outputs.loss.item():.4f}")

    print(f"epoch {epoch}: mean train loss {total_loss.item() / len(train_dataloader):.4f}")

    metric = evaluate.load("glue", "mrpc")
    model.eval()
    for batch in eval_dataloader:
        batch = {k: v.to(device) for k, v in batch.items()}
        with torch.no_grad():
            outputs = model(**batch)
        predictions = torch.argmax(outputs.logits, dim=-1)
        metric.add_batch(predictions=predictions, references=batch["labels"])
    print(metric.compute())

torch.save([h.item() for h in hist], "train_loss_hist.pt")
model.save_pretrained("mrpc-finetuned")
