"""Supervised fine-tuning of a causal LM with gradient accumulation and bf16 autocast."""
import argparse
import math
import time

import torch
from datasets import load_dataset
from torch.utils.data import DataLoader
from transformers import AutoModelForCausalLM, AutoTokenizer, DataCollatorForLanguageModeling, get_cosine_schedule_with_warmup


def build_dataloaders(tokenizer, name, max_len, micro_bs):
    ds = load_dataset(name)

    def tok(batch):
        texts = [p + "\n" + r + tokenizer.eos_token for p, r in zip(batch["prompt"], batch["response"])]
        return tokenizer(texts, truncation=True, max_length=max_len)

    ds = ds.map(tok, batched=True, remove_columns=ds["train"].column_names)
    collator = DataCollatorForLanguageModeling(tokenizer, mlm=False)
    return (DataLoader(ds["train"], batch_size=micro_bs, shuffle=True, collate_fn=collator),
            DataLoader(ds["test"], batch_size=micro_bs, collate_fn=collator))


def evaluate(model, loader, device, max_batches=100):
    model.eval()
    eval_losses = []
    with torch.inference_mode():
        for i, batch in enumerate(loader):
            if i >= max_batches:
                break
            batch = {k: v.to(device) for k, v in batch.items()}
            with torch.autocast("cuda", dtype=torch.bfloat16):
                eval_losses.append(model(**batch).loss)  # ok
    model.train()
    return torch.stack(eval_losses).float().mean().item()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--model", default="EleutherAI/pythia-410m")
    p.add_argument("--dataset", default="my-org/sft-mix")
    p.add_argument("--max-len", type=int, default=1024)
    p.add_argument("--micro-bs", type=int, default=4)
    p.add_argument("--accum-steps", type=int, default=16)
    p.add_argument("--lr", type=float, default=2e-5)
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--eval-every", type=int, default=200)
    args = p.parse_args()

    device = torch.device("cuda")
    tokenizer = AutoTokenizer.from_pretrained(args.model)
    tokenizer.pad_token = tokenizer.pad_token or tokenizer.eos_token
    model = AutoModelForCausalLM.from_pretrained(args.model, torch_dtype=torch.bfloat16).to(device)
    model.gradient_checkpointing_enable()
    train_dl, eval_dl = build_dataloaders(tokenizer, args.dataset, args.max_len, args.micro_bs)

    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, betas=(0.9, 0.95), weight_decay=0.1)
    total_updates = args.epochs * math.ceil(len(train_dl) / args.accum_steps)
    scheduler = get_cosine_schedule_with_warmup(optimizer, int(0.03 * total_updates), total_updates)

    update = 0
    accum_loss = 0.0
    tokens_in_window = 0
    log_losses = []
    ema_loss = None
    t0 = time.time()
    model.train()
    for epoch in range(args.epochs):
        for step, batch in enumerate(train_dl):
            batch = {k: v.to(device) for k, v in batch.items()}
            with torch.autocast("cuda", dtype=torch.bfloat16):
                out = model(**batch)
                loss = out.loss / args.accum_steps
            if getattr(out, "aux_loss", None) is not None:
                loss = loss + 0.01 * out.aux_loss / args.accum_steps  # ok
            accum_loss = accum_loss + loss  # ok
            tokens_in_window += int(batch["attention_mask"].sum())  # ok

            if (step + 1) % args.accum_steps == 0:
                accum_loss.backward()
                torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
                optimizer.step()
                scheduler.step()
                optimizer.zero_grad(set_to_none=True)
                update += 1

                log_losses.append(accum_loss.detach().float())  # ok
                cur = float(accum_loss)
                ema_loss = cur if ema_loss is None else 0.9 * ema_loss + 0.1 * cur  # ok
                if update % 10 == 0:
                    dt = time.time() - t0
                    print(f"update {update}/{total_updates} loss {cur:.4f} ema {ema_loss:.4f} "
                          f"tok/s {tokens_in_window / dt:.0f} lr {scheduler.get_last_lr()[0]:.2e}")
                    tokens_in_window, t0 = 0, time.time()
                if update % args.eval_every == 0:
                    print(f"eval loss {evaluate(model, eval_dl, device):.4f}")
                accum_loss = 0.0

    torch.save(torch.stack(log_losses).cpu(), "train_losses.pt")
    model.save_pretrained("sft-out")
    tokenizer.save_pretrained("sft-out")


if __name__ == "__main__":
    main()
