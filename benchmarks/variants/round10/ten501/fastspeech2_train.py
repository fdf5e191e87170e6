"""FastSpeech 2 training with mixed precision and a variance adaptor."""
import argparse
import logging
import os

import torch
import torch.nn as nn
from torch.cuda.amp import GradScaler, autocast
from torch.utils.data import DataLoader

from fs2.dataset import TTSDataset
from fs2.model import FastSpeech2

logger = logging.getLogger("fs2")


class FastSpeech2Loss(nn.Module):
    def __init__(self):
        super().__init__()
        self.mse = nn.MSELoss()
        self.mae = nn.L1Loss()

    def forward(self, out, batch):
        src_mask = ~batch["src_mask"]
        mel_mask = ~batch["mel_mask"]
        mel_t = batch["mel"][:, : out["mel"].size(1)]
        mel_loss = self.mae(out["mel"].masked_select(mel_mask.unsqueeze(-1)), mel_t.masked_select(mel_mask.unsqueeze(-1)))
        post_loss = self.mae(out["postnet"].masked_select(mel_mask.unsqueeze(-1)),
                             mel_t.masked_select(mel_mask.unsqueeze(-1)))
        dur_loss = self.mse(out["log_duration"].masked_select(src_mask),
                            torch.log(batch["duration"].float() + 1).masked_select(src_mask))
        pitch_loss = self.mse(out["pitch"].masked_select(src_mask), batch["pitch"].masked_select(src_mask))
        energy_loss = self.mse(out["energy"].masked_select(src_mask), batch["energy"].masked_select(src_mask))
        return mel_loss, post_loss, dur_loss, pitch_loss, energy_loss


def train_step(model, batch, optimizer, scaler, criterion, grad_clip=1.0):
    with autocast():
        out = model(batch["text"], batch["src_len"], batch["mel_len"], batch["duration"],
                    batch["pitch"], batch["energy"])
        parts = criterion(out, batch)
        total = sum(parts)
    optimizer.zero_grad(set_to_none=True)
    scaler.scale(total).backward()
    scaler.unscale_(optimizer)
    nn.utils.clip_grad_norm_(model.parameters(), grad_clip)
    scaler.step(optimizer)
    scaler.update()
    return total, parts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True)
    ap.add_argument("--out", default="runs/fs2")
    ap.add_argument("--steps", type=int, default=300_000)
    ap.add_argument("--log_interval", type=int, default=100)
    ap.add_argument("--save_interval", type=int, default=10_000)
    args = ap.parse_args()

    device = torch.device("cuda")
    ds = TTSDataset(args.data, "train.txt")
    loader = DataLoader(ds, batch_size=16, shuffle=True, collate_fn=ds.collate_fn, num_workers=4, drop_last=True)
    model = FastSpeech2(ds.n_symbols).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, betas=(0.9, 0.98), eps=1e-9)
    scheduler = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda s: min((s + 1) ** -0.5, (s + 1) * 4000 ** -1.5) * 256 ** -0.5 * 1e3)
    scaler = GradScaler()
    criterion = FastSpeech2Loss()

    history = []
    running_total = 0.0
    step = 0
    while step < args.steps:
        for batch in loader:
            batch = {k: v.to(device) if torch.is_tensor(v) else v for k, v in batch.items()}
            total, parts = train_step(model, batch, optimizer, scaler, criterion)
            scheduler.step()
            step += 1
            history.append((step, *parts))  # expect: TEN501
            running_total += total.item()  # ok
            if step % args.log_interval == 0:
                names = ("mel", "post", "dur", "pitch", "energy")
                last = history[-1]
                logger.info("step %d total %.4f | %s", step, running_total / args.log_interval,
                            " ".join(f"{n}={float(v):.3f}" for n, v in zip(names, last[1:])))
                running_total = 0.0
            if step % args.save_interval == 0:
                torch.save({"model": model.state_dict(), "step": step}, os.path.join(args.out, f"{step}.pt"))
            if step >= args.steps:
                break


if __name__ == "__main__":
    main()
