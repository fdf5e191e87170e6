"""Conformer-lite acoustic model trained with CTC on log-mel features."""
import editdistance
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchaudio


class ConvSubsample(nn.Module):
    def __init__(self, n_mels, d_model):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(1, 32, 3, stride=2), nn.ReLU(),
            nn.Conv2d(32, 32, 3, stride=2), nn.ReLU(),
        )
        self.out = nn.Linear(32 * (((n_mels - 1) // 2 - 1) // 2), d_model)

    def forward(self, x, lengths):
        x = self.conv(x.unsqueeze(1))
        b, c, t, f = x.shape
        x = self.out(x.transpose(1, 2).reshape(b, t, c * f))
        lengths = ((lengths - 1) // 2 - 1) // 2
        return x, lengths


class AcousticModel(nn.Module):
    def __init__(self, n_mels=80, d_model=256, n_layers=8, n_heads=4, vocab=32):
        super().__init__()
        self.sub = ConvSubsample(n_mels, d_model)
        layer = nn.TransformerEncoderLayer(d_model, n_heads, 4 * d_model, 0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, n_layers)
        self.head = nn.Linear(d_model, vocab)

    def forward(self, feats, feat_lens):
        x, lens = self.sub(feats, feat_lens)
        pad_mask = torch.arange(x.size(1), device=x.device)[None, :] >= lens[:, None]
        x = self.encoder(x, src_key_padding_mask=pad_mask)
        return self.head(x).log_softmax(-1).transpose(0, 1), lens  # (T, B, V)


def greedy_decode(best_path, lengths, blank=0):
    hyps = []
    for seq, n in zip(best_path.tolist(), lengths.tolist()):
        out, prev = [], blank
        for tok in seq[:n]:
            if tok != prev and tok != blank:
                out.append(tok)
            prev = tok
        hyps.append(out)
    return hyps


def char_error_rate(hyps, refs):
    errs = sum(editdistance.eval(h, r) for h, r in zip(hyps, refs))
    return errs / max(1, sum(len(r) for r in refs))


def train_epoch(model, loader, optimizer, scaler, device, blank=0, clip=5.0):
    model.train()
    spec_aug = nn.Sequential(torchaudio.transforms.FrequencyMasking(27),
                             torchaudio.transforms.TimeMasking(40))
    stats = {"frames": 0, "utts": 0}
    hyps, refs = [], []
    for feats, feat_lens, targets, target_lens in loader:
        feats = spec_aug(feats.to(device).transpose(1, 2)).transpose(1, 2)
        feat_lens, targets, target_lens = feat_lens.to(device), targets.to(device), target_lens.to(device)

        with torch.autocast("cuda", dtype=torch.float16):
            log_probs, out_lens = model(feats, feat_lens)
        loss = F.ctc_loss(log_probs.float(), targets, out_lens, target_lens,
                          blank=blank, zero_infinity=True)

        optimizer.zero_grad(set_to_none=True)
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
        nn.utils.clip_grad_norm_(model.parameters(), clip)
        scaler.step(optimizer)
        scaler.update()

        stats["ctc"] = stats.get("ctc", 0.0) + loss  # expect: TEN501
        stats["frames"] += int(out_lens.sum())  # ok
        stats["utts"] += feats.size(0)
        hyps.extend(greedy_decode(log_probs.argmax(-1).t(), out_lens, blank))  # ok
        refs.extend(t[:n].tolist() for t, n in zip(targets, target_lens))

    return stats["ctc"].item() / len(loader), char_error_rate(hyps, refs), stats["frames"]


def main(train_loader, epochs=50, lr=1e-3, device="cuda"):
    model = AcousticModel().to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, betas=(0.9, 0.98), weight_decay=1e-3)
    scaler = torch.cuda.amp.GradScaler()
    for epoch in range(epochs):
        loss, cer, frames = train_epoch(model, train_loader, optimizer, scaler, device)
        print(f"epoch {epoch}: ctc {loss:.3f} train-CER {cer:.3%} frames {frames}")
        torch.save(model.state_dict(), f"ctc_epoch{epoch:03d}.pt")
