"""Training entry point for a Tacotron2-style acoustic model."""
import argparse
import os
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader

from tts.data_utils import TextMelCollate, TextMelLoader
from tts.hparams import create_hparams
from tts.model import Tacotron2


class Tacotron2Loss(nn.Module):
    def forward(self, model_output, targets):
        mel_target, gate_target = targets[0], targets[1]
        mel_target.requires_grad = False
        gate_target.requires_grad = False
        gate_target = gate_target.view(-1, 1)

        mel_out, mel_out_postnet, gate_out, _ = model_output
        gate_out = gate_out.view(-1, 1)
        mel_loss = F.mse_loss(mel_out, mel_target) + F.mse_loss(mel_out_postnet, mel_target)
        gate_loss = F.binary_cross_entropy_with_logits(gate_out, gate_target)
        return mel_loss, gate_loss


def prepare_dataloaders(hparams):
    trainset = TextMelLoader(hparams.training_files, hparams)
    valset = TextMelLoader(hparams.validation_files, hparams)
    collate_fn = TextMelCollate(hparams.n_frames_per_step)
    train_loader = DataLoader(trainset, num_workers=4, shuffle=True,
                              batch_size=hparams.batch_size, pin_memory=False,
                              drop_last=True, collate_fn=collate_fn)
    val_loader = DataLoader(valset, num_workers=1, shuffle=False,
                            batch_size=hparams.batch_size, pin_memory=False,
                            collate_fn=collate_fn)
    return train_loader, val_loader


def train_epoch(model, loader, criterion, optimizer, epoch, grad_clip=1.0, log_every=100):
    model.train()
    epoch_loss = 0.0
    mel_sum = 0.0
    gate_hist = []
    start = time.perf_counter()
    for i, batch in enumerate(loader):
        x, y = model.parse_batch(batch)
        y_pred = model(x)
        mel_loss, gate_loss = criterion(y_pred, y)
        loss = mel_loss + gate_loss

        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), grad_clip)
        optimizer.step()

        epoch_loss += loss  # expect: TEN501
        mel_sum += mel_loss.item()  # ok
        gate_hist.append(gate_loss.detach())  # ok

        if i % log_every == 0:
            dur = time.perf_counter() - start
            print(f"epoch {epoch} iter {i} loss {loss.item():.4f} "
                  f"grad {grad_norm:.3f} {dur:.2f}s")
            start = time.perf_counter()

    n = max(len(loader), 1)
    return float(epoch_loss) / n, mel_sum / n, torch.stack(gate_hist).mean().item()


def validate(model, loader, criterion):
    model.eval()
    total = 0.0
    with torch.no_grad():
        for batch in loader:
            x, y = model.parse_batch(batch)
            mel_loss, gate_loss = criterion(model(x), y)
            total += mel_loss + gate_loss  # ok
    model.train()
    return float(total) / max(len(loader), 1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--output_directory", type=str, required=True)
    parser.add_argument("--epochs", type=int, default=500)
    parser.add_argument("--hparams", type=str, default="")
    args = parser.parse_args()

    hparams = create_hparams(args.hparams)
    torch.manual_seed(hparams.seed)
    model = Tacotron2(hparams).cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=hparams.learning_rate,
                                 weight_decay=hparams.weight_decay)
    criterion = Tacotron2Loss()
    train_loader, val_loader = prepare_dataloaders(hparams)

    best = float("inf")
    for epoch in range(args.epochs):
        train_loss, mel, gate = train_epoch(model, train_loader, criterion, optimizer, epoch,
                                            grad_clip=hparams.grad_clip_thresh)
        val_loss = validate(model, val_loader, criterion)
        print(f"[{epoch}] train {train_loss:.4f} (mel {mel:.4f} gate {gate:.4f}) val {val_loss:.4f}")
        if val_loss < best:
            best = val_loss
            torch.save({"state_dict": model.state_dict(), "epoch": epoch},
                       os.path.join(args.output_directory, "best.pt"))


if __name__ == "__main__":
    main()
