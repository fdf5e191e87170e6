import argparse
import os
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader

from tts.data import TextMelCollate, TextMelDataset
from tts.hparams import create_hparams
from tts.model import Tacotron2


class Tacotron2Loss(nn.Module):
    def forward(self, model_output, targets):
        mel_target, gate_target = targets
        mel_target.requires_grad_(False)
        gate_target = gate_target.view(-1, 1)
        mel_out, mel_out_postnet, gate_out, _ = model_output
        gate_out = gate_out.view(-1, 1)
        mel_loss = F.mse_loss(mel_out, mel_target)
        postnet_loss = F.mse_loss(mel_out_postnet, mel_target)
        gate_loss = F.binary_cross_entropy_with_logits(gate_out, gate_target)
        return {
            "loss": mel_loss + postnet_loss + gate_loss,
            "mel_loss": mel_loss,
            "postnet_loss": postnet_loss,
            "gate_loss": gate_loss,
        }


def compute_losses(model, criterion, batch):
    x, y = model.parse_batch(batch)
    y_pred = model(x)
    out = criterion(y_pred, y)
    out["alignments"] = y_pred[3]
    return out


def validate(model, criterion, val_loader, iteration):
    model.eval()
    with torch.no_grad():
        val_loss = 0.0
        for i, batch in enumerate(val_loader):
            out = compute_losses(model, criterion, batch)
            val_loss += out["loss"]  # ok
        val_loss = val_loss / (i + 1)
    model.train()
    print(f"Validation loss {iteration}: {val_loss.item():9f}")
    return val_loss.item()


def train(output_directory, hparams):
    torch.manual_seed(hparams.seed)
    model = Tacotron2(hparams).cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=hparams.learning_rate, weight_decay=hparams.weight_decay)
    criterion = Tacotron2Loss()
    collate_fn = TextMelCollate(hparams.n_frames_per_step)
    trainset = TextMelDataset(hparams.training_files, hparams)
    valset = TextMelDataset(hparams.validation_files, hparams)
    train_loader = DataLoader(trainset, num_workers=1, shuffle=True, batch_size=hparams.batch_size,
                              pin_memory=False, drop_last=True, collate_fn=collate_fn)
    val_loader = DataLoader(valset, num_workers=1, shuffle=False, batch_size=hparams.batch_size,
                            pin_memory=False, collate_fn=collate_fn)

    iteration = 0
    log_keys = ("mel_loss", "postnet_loss")
    running = {k: 0.0 for k in log_keys}
    running_gate = 0.0
    for epoch in range(hparams.epochs):
        for batch in train_loader:
            start = time.perf_counter()
            model.zero_grad()
            out = compute_losses(model, criterion, batch)
            out["loss"].backward()
            grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), hparams.grad_clip_thresh)
            optimizer.step()

            for k in log_keys:
                running[k] += out[k]  # expect: TEN501
            running_gate += out["gate_loss"].item()  # ok

            if iteration % hparams.log_interval == 0 and iteration > 0:
                dur = time.perf_counter() - start
                msg = " ".join(f"{k} {float(v) / hparams.log_interval:.4f}" for k, v in running.items())
                print(f"Train {iteration}: loss {out['loss'].item():.6f} {msg} "
                      f"gate {running_gate / hparams.log_interval:.4f} grad {grad_norm:.3f} {dur:.2f}s/it")
                running = {k: 0.0 for k in log_keys}
                running_gate = 0.0

            if iteration % hparams.iters_per_checkpoint == 0:
                validate(model, criterion, val_loader, iteration)
                torch.save({"iteration": iteration, "state_dict": model.state_dict(),
                            "optimizer": optimizer.state_dict()},
                           os.path.join(output_directory, f"checkpoint_{iteration}"))
            iteration += 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("-o", "--output_directory", type=str, default="outdir")
    parser.add_argument("--hparams", type=str, default="")
    args = parser.parse_args()
    hparams = create_hparams(args.hparams)
    os.makedirs(args.output_directory, exist_ok=True)
    train(args.output_directory, hparams)
