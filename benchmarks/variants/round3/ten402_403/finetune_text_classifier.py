import logging
import os

import numpy as np
import torch
from torch.utils.data import DataLoader
from transformers import AutoModelForSequenceClassification, AutoTokenizer, get_linear_schedule_with_warmup

from data_utils import load_sst2_splits

logger = logging.getLogger(__name__)

MODEL_NAME = os.environ.get("MODEL_NAME", "distilbert-base-uncased")
NUM_EPOCHS = 4
LR = 2e-5
BATCH_SIZE = 32


def collate(tokenizer):
    def _fn(batch):
        texts = [b["sentence"] for b in batch]
        enc = tokenizer(texts, padding=True, truncation=True, max_length=128, return_tensors="pt")
        enc["labels"] = torch.tensor([b["label"] for b in batch])
        return enc
    return _fn


@torch.no_grad()
def eval_accuracy(model, loader, device):
    model.eval()
    preds, labels = [], []
    for batch in loader:
        batch = {k: v.to(device) for k, v in batch.items()}
        logits = model(**batch).logits
        preds.append(logits.argmax(-1).cpu().numpy())
        labels.append(batch["labels"].cpu().numpy())
    return float((np.concatenate(preds) == np.concatenate(labels)).mean())


def train():
    device = "cuda" if torch.cuda.is_available() else "cpu"
    tokenizer = AutoTokenizer.from_pretrained(MODEL_NAME)
    model = AutoModelForSequenceClassification.from_pretrained(MODEL_NAME, num_labels=2).to(device)

    train_ds, dev_ds = load_sst2_splits()
    train_loader = DataLoader(train_ds, batch_size=BATCH_SIZE, shuffle=True, collate_fn=collate(tokenizer))
    dev_loader = DataLoader(dev_ds, batch_size=64, collate_fn=collate(tokenizer))

    no_decay = ["bias", "LayerNorm.weight"]
    grouped = [
        {"params": [p for n, p in model.named_parameters() if not any(nd in n for nd in no_decay)], "weight_decay": 0.01},
        {"params": [p for n, p in model.named_parameters() if any(nd in n for nd in no_decay)], "weight_decay": 0.0},
    ]
    optimizer = torch.optim.AdamW(grouped, lr=LR)
    total_steps = len(train_loader) * NUM_EPOCHS
    scheduler = get_linear_schedule_with_warmup(optimizer, int(0.1 * total_steps), total_steps)

    best_acc = 0.0
    best_weights = None
    for epoch in range(NUM_EPOCHS):
        model.train()
        running = 0.0
        for step, batch in enumerate(train_loader):
            batch = {k: v.to(device) for k, v in batch.items()}
            out = model(**batch)
            out.loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
            running += out.loss.item()
            if step % 100 == 0:
                logger.info("epoch %d step %d loss %.4f", epoch, step, running / (step + 1))

        acc = eval_accuracy(model, dev_loader, device)
        logger.info("epoch %d dev acc %.4f", epoch, acc)
        if acc > best_acc:
            best_acc = acc
            best_weights = model.state_dict().copy()  # expect: TEN402

    logger.info("best dev acc %.4f, restoring best weights", best_acc)
    model.load_state_dict(best_weights)
    model.save_pretrained("outputs/best")
    tokenizer.save_pretrained("outputs/best")


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    train()
