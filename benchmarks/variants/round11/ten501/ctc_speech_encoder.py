"""Conformer-lite CTC speech recogniser with a running log of per-batch posteriors."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvSubsample(nn.Module):
    def __init__(self, n_mels=80, d=144):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(n_mels, d, 3, stride=2, padding=1), nn.GELU(),
            nn.Conv1d(d, d, 3, stride=2, padding=1), nn.GELU(),
        )

    def forward(self, feats):  # (B, T, F)
        return self.conv(feats.transpose(1, 2)).transpose(1, 2)


class CTCModel(nn.Module):
    def __init__(self, n_mels=80, d=144, vocab=32):
        super().__init__()
        self.sub = ConvSubsample(n_mels, d)
        layer = nn.TransformerEncoderLayer(d, 4, 4 * d, batch_first=True)
        self.enc = nn.TransformerEncoder(layer, 2)
        self.out = nn.Linear(d, vocab)

    def forward(self, feats):
        return self.out(self.enc(self.sub(feats))).log_softmax(-1)


def train(model, loader, steps=100):
    opt = torch.optim.AdamW(model.parameters(), lr=5e-4)
    ctc = nn.CTCLoss(blank=0, zero_infinity=True)
    blank_rate_hist = torch.empty(0)
    loss_hist = torch.empty(0)
    for step, (feats, feat_lens, targets, target_lens) in enumerate(loader):
        log_probs = model(feats)
        out_lens = torch.div(feat_lens, 4, rounding_mode="floor")
        loss = ctc(log_probs.transpose(0, 1), targets, out_lens, target_lens)
        opt.zero_grad()
        loss.backward()
        opt.step()

        # how often does the model emit blank? useful to spot collapse
        blank_rate = log_probs[..., 0].exp().mean()
        blank_rate_hist = torch.cat([blank_rate_hist, blank_rate.view(1)])  # expect: TEN501
        loss_hist = torch.cat([loss_hist, loss.detach().view(1)])  # ok
        if step % 20 == 0:
            print(step, loss_hist[-20:].mean().item(), blank_rate_hist[-20:].mean().item())
        if step >= steps:
            break
    return loss_hist, blank_rate_hist


def greedy_decode(model, feats):
    with torch.inference_mode():
        best = model(feats).argmax(-1)
    hyps = []
    for row in best:
        prev, seq = 0, []
        for tok in row.tolist():
            if tok != prev and tok != 0:
                seq.append(tok)  # ok
            prev = tok
        hyps.append(seq)  # ok
    return hyps
