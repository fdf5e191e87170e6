"""Fine-tune a sequence classifier with a hand-rolled loop and gradient accumulation."""
import torch
from torch.utils.data import DataLoader
from transformers import AutoModelForSequenceClassification, AutoTokenizer, get_linear_schedule_with_warmup

MODEL_NAME = "distilbert-base-uncased"
GRAD_ACCUM = 4
LOG_EVERY = 50


def collate(tokenizer):
    def _fn(batch):
        texts = [b["text"] for b in batch]
        labels = torch.tensor([b["label"] for b in batch])
        enc = tokenizer(texts, padding=True, truncation=True, max_length=128, return_tensors="pt")
        enc["labels"] = labels
        return enc
    return _fn


def train(train_data, epochs=2, lr=2e-5, device="cuda"):
    tokenizer = AutoTokenizer.from_pretrained(MODEL_NAME)
    model = AutoModelForSequenceClassification.from_pretrained(MODEL_NAME, num_labels=2).to(device)
    loader = DataLoader(train_data, batch_size=16, shuffle=True, collate_fn=collate(tokenizer))

    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.01)
    total_steps = len(loader) // GRAD_ACCUM * epochs
    scheduler = get_linear_schedule_with_warmup(optimizer, int(0.1 * total_steps), total_steps)

    tr_loss = torch.tensor(0.0, device=device)
    logging_loss = 0.0
    global_step = 0
    model.train()
    for epoch in range(epochs):
        for step, batch in enumerate(loader):
            batch = {k: v.to(device) for k, v in batch.items()}
            outputs = model(**batch)
            loss = outputs.loss / GRAD_ACCUM
            loss.backward()
            tr_loss += loss  # expect: TEN501

            if (step + 1) % GRAD_ACCUM == 0:
                torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
                optimizer.step()
                scheduler.step()
                optimizer.zero_grad()
                global_step += 1

                if global_step % LOG_EVERY == 0:
                    cur = tr_loss.item()
                    print(f"step {global_step} lr {scheduler.get_last_lr()[0]:.2e} "
                          f"loss {(cur - logging_loss) / LOG_EVERY:.4f}")
                    logging_loss = cur
    return model, tr_loss.item() / max(global_step, 1)


if __name__ == "__main__":
    data = [{"text": "great movie" if i % 2 else "awful plot", "label": i % 2} for i in range(512)]
    train(data, device="cuda" if torch.cuda.is_available() else "cpu")
