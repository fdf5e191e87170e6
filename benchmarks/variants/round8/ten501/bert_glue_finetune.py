#!/usr/bin/env python
"""Fine-tune a BERT-style encoder on a GLUE pair-classification task."""
import argparse
import logging
import math
import random

import numpy as np
import torch
from datasets import load_dataset
from sklearn.metrics import f1_score
from torch.utils.data import DataLoader
from tqdm.auto import tqdm
from transformers import (
    AutoModelForSequenceClassification,
    AutoTokenizer,
    DataCollatorWithPadding,
    get_linear_schedule_with_warmup,
)

logger = logging.getLogger(__name__)

TASK_KEYS = {
    "mrpc": ("sentence1", "sentence2"),
    "rte": ("sentence1", "sentence2"),
    "qnli": ("question", "sentence"),
    "sst2": ("sentence", None),
}


def set_seed(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.cuda.manual_seed_all(seed)


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--model_name_or_path", default="bert-base-uncased")
    p.add_argument("--task_name", default="mrpc", choices=list(TASK_KEYS))
    p.add_argument("--max_length", type=int, default=128)
    p.add_argument("--per_device_train_batch_size", type=int, default=32)
    p.add_argument("--per_device_eval_batch_size", type=int, default=64)
    p.add_argument("--learning_rate", type=float, default=2e-5)
    p.add_argument("--num_train_epochs", type=int, default=3)
    p.add_argument("--gradient_accumulation_steps", type=int, default=1)
    p.add_argument("--warmup_ratio", type=float, default=0.1)
    p.add_argument("--logging_steps", type=int, default=50)
    p.add_argument("--seed", type=int, default=42)
    p.add_argument("--output_dir", default="out")
    return p.parse_args()


def evaluate(model, dataloader, device):
    model.eval()
    eval_loss = 0.0
    all_logits, all_labels = [], []
    for batch in tqdm(dataloader, desc="Evaluating", leave=False):
        batch = {k: v.to(device) for k, v in batch.items()}
        outputs = model(**batch)
        eval_loss += outputs.loss  # expect: TEN501
        all_logits.append(outputs.logits)  # expect: TEN501
        all_labels.append(batch["labels"])  # ok
    logits = torch.cat(all_logits)
    labels = torch.cat(all_labels)
    preds = logits.argmax(dim=-1)
    acc = (preds == labels).float().mean().item()
    f1 = f1_score(labels.cpu().numpy(), preds.cpu().numpy())
    return {"eval_loss": eval_loss.item() / len(dataloader), "accuracy": acc, "f1": f1}


def main():
    args = parse_args()
    logging.basicConfig(format="%(asctime)s - %(levelname)s - %(name)s - %(message)s", level=logging.INFO)
    set_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    raw = load_dataset("glue", args.task_name)
    num_labels = raw["train"].features["label"].num_classes
    tokenizer = AutoTokenizer.from_pretrained(args.model_name_or_path)
    model = AutoModelForSequenceClassification.from_pretrained(args.model_name_or_path, num_labels=num_labels)
    model.to(device)

    key1, key2 = TASK_KEYS[args.task_name]

    def preprocess(examples):
        texts = (examples[key1],) if key2 is None else (examples[key1], examples[key2])
        result = tokenizer(*texts, max_length=args.max_length, truncation=True)
        result["labels"] = examples["label"]
        return result

    processed = raw.map(preprocess, batched=True, remove_columns=raw["train"].column_names)
    collator = DataCollatorWithPadding(tokenizer)
    train_dataloader = DataLoader(processed["train"], shuffle=True, collate_fn=collator,
                                  batch_size=args.per_device_train_batch_size)
    eval_dataloader = DataLoader(processed["validation"], collate_fn=collator,
                                 batch_size=args.per_device_eval_batch_size)

    no_decay = ["bias", "LayerNorm.weight"]
    grouped = [
        {"params": [p for n, p in model.named_parameters() if not any(nd in n for nd in no_decay)], "weight_decay": 0.01},
        {"params": [p for n, p in model.named_parameters() if any(nd in n for nd in no_decay)], "weight_decay": 0.0},
    ]
    optimizer = torch.optim.AdamW(grouped, lr=args.learning_rate)
    steps_per_epoch = math.ceil(len(train_dataloader) / args.gradient_accumulation_steps)
    max_train_steps = args.num_train_epochs * steps_per_epoch
    lr_scheduler = get_linear_schedule_with_warmup(optimizer, int(args.warmup_ratio * max_train_steps), max_train_steps)

    global_step = 0
    tr_loss, logging_loss = 0.0, 0.0
    best_f1 = 0.0
    for epoch in range(args.num_train_epochs):
        model.train()
        for step, batch in enumerate(tqdm(train_dataloader, desc=f"Epoch {epoch}")):
            batch = {k: v.to(device) for k, v in batch.items()}
            outputs = model(**batch)
            loss = outputs.loss / args.gradient_accumulation_steps
            loss.backward()
            tr_loss += loss.item()  # ok

            if (step + 1) % args.gradient_accumulation_steps == 0 or step == len(train_dataloader) - 1:
                torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
                optimizer.step()
                lr_scheduler.step()
                optimizer.zero_grad()
                global_step += 1
                if global_step % args.logging_steps == 0:
                    logger.info("step %d loss %.4f lr %.2e", global_step,
                                (tr_loss - logging_loss) / args.logging_steps, lr_scheduler.get_last_lr()[0])
                    logging_loss = tr_loss

        metrics = evaluate(model, eval_dataloader, device)
        logger.info("epoch %d: %s", epoch, metrics)
        if metrics["f1"] > best_f1:
            best_f1 = metrics["f1"]
            model.save_pretrained(args.output_dir)
            tokenizer.save_pretrained(args.output_dir)


if __name__ == "__main__":
    main()
