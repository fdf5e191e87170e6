"""Multi-label audio tagging (ESC/FSD-style) with a CNN14-like model on log-mel spectrograms."""
import json
import os
from collections import defaultdict

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchaudio
from sklearn.metrics import average_precision_score

_STEP_LOG = []
_SCALARS = defaultdict(list)


def log_step(step, loss, lr):
    _STEP_LOG.append({"step": step, "loss": loss, "lr": lr})


def log_scalar(name, value):
    _SCALARS[name].append(value)


def dump_logs(path):
    with open(path, "w") as f:
        json.dump({
            "steps": [{k: float(v) for k, v in rec.items()} for rec in _STEP_LOG],
            "scalars": {k: [float(x) for x in v] for k, v in _SCALARS.items()},
        }, f)


class ConvBlock(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)

    def forward(self, x):
        x = F.relu(self.bn1(self.conv1(x)))
        x = F.relu(self.bn2(self.conv2(x)))
        return F.avg_pool2d(x, 2)


class AudioTagger(nn.Module):
    def __init__(self, n_classes, n_mels=64):
        super().__init__()
        self.melspec = torchaudio.transforms.MelSpectrogram(32000, n_fft=1024, hop_length=320, n_mels=n_mels)
        self.to_db = torchaudio.transforms.AmplitudeToDB(top_db=80)
        self.bn0 = nn.BatchNorm2d(n_mels)
        self.blocks = nn.Sequential(ConvBlock(1, 64), ConvBlock(64, 128), ConvBlock(128, 256), ConvBlock(256, 512))
        self.fc = nn.Linear(512, n_classes)

    def forward(self, wav):
        x = self.to_db(self.melspec(wav)).unsqueeze(1)
        x = self.bn0(x.transpose(1, 2)).transpose(1, 2)
        x = self.blocks(x).mean(dim=3)
        x = x.max(dim=2).values + x.mean(dim=2)
        return self.fc(F.dropout(x, 0.5, self.training))


def mixup(wav, labels, alpha=0.4):
    lam = float(np.random.beta(alpha, alpha))
    perm = torch.randperm(wav.size(0), device=wav.device)
    return lam * wav + (1 - lam) * wav[perm], lam * labels + (1 - lam) * labels[perm]


def train(model, train_loader, val_loader, epochs=40, lr=1e-3, device="cuda", log_dir="runs/tagger"):
    model.to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-2)
    scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=lr, total_steps=epochs * len(train_loader))
    os.makedirs(log_dir, exist_ok=True)
    global_step = 0
    for epoch in range(epochs):
        model.train()
        for wav, labels in train_loader:
            wav, labels = wav.to(device), labels.to(device).float()
            wav, labels = mixup(wav, labels)
            logits = model(wav)
            loss = F.binary_cross_entropy_with_logits(logits, labels)

            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            gnorm = nn.utils.clip_grad_norm_(model.parameters(), 10.0)
            optimizer.step()
            scheduler.step()

            log_step(global_step, loss, scheduler.get_last_lr()[0])  # expect: TEN501
            log_scalar("grad_norm", float(gnorm))  # ok
            log_scalar("label_density", labels.mean())  # ok
            global_step += 1

        mAP = evaluate(model, val_loader, device)
        log_scalar("val_mAP", mAP)  # ok
        print(f"epoch {epoch}: val mAP {mAP:.4f}")
        dump_logs(os.path.join(log_dir, "log.json"))
        torch.save(model.state_dict(), os.path.join(log_dir, "tagger.pt"))


@torch.no_grad()
def evaluate(model, loader, device):
    model.eval()
    scores, targets = [], []
    for wav, labels in loader:
        scores.append(torch.sigmoid(model(wav.to(device))).cpu().numpy())  # ok
        targets.append(labels.numpy())
    return float(average_precision_score(np.concatenate(targets), np.concatenate(scores), average="macro"))


if __name__ == "__main__":
    from data import build_loaders  # project-local dataset code

    train_dl, val_dl, n_classes = build_loaders("data/fsd50k", batch_size=32)
    train(AudioTagger(n_classes), train_dl, val_dl)
