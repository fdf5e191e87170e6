"""Keyword-spotting fine-tune on top of a small conv feature extractor.

Uses module-level buffers for quick notebook-style inspection.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

LOSS_LOG = []
GRAD_NORMS = []
MARGIN_LOG = []
STEP = 0


class FeatureExtractor(nn.Module):
    def __init__(self, d=256):
        super().__init__()
        chans = [1, 64, 128, d]
        layers = []
        for cin, cout in zip(chans[:-1], chans[1:]):
            layers += [nn.Conv1d(cin, cout, 10, stride=5), nn.GroupNorm(1, cout), nn.GELU()]
        self.conv = nn.Sequential(*layers)

    def forward(self, wav):
        return self.conv(wav.unsqueeze(1)).mean(-1)


class KWS(nn.Module):
    def __init__(self, n_words=12):
        super().__init__()
        self.feat = FeatureExtractor()
        self.cls = nn.Linear(256, n_words)

    def forward(self, wav):
        return self.cls(self.feat(wav))


def train_step(model, opt, wav, label):
    global STEP
    logits = model(wav)
    loss = F.cross_entropy(logits, label, label_smoothing=0.1)
    opt.zero_grad()
    loss.backward()
    gn = nn.utils.clip_grad_norm_(model.parameters(), 5.0)
    opt.step()
    STEP += 1  # ok
    LOSS_LOG.append(loss.cpu())  # expect: TEN501
    GRAD_NORMS.append(gn)  # ok
    top2 = logits.topk(2, dim=-1).values
    MARGIN_LOG.append((top2[:, 0] - top2[:, 1]).mean().clone())  # expect: TEN501
    return loss.data


def train(model, loader, epochs=3):
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    epoch_means = []
    for _ in range(epochs):
        acc = 0.0
        for wav, label in loader:
            acc += train_step(model, opt, wav, label)  # ok
        epoch_means.append(acc / len(loader))  # ok
    return epoch_means
