"""Linear probe: features from a frozen backbone, then a trained head."""
import torch
import torch.nn as nn


def extract(backbone, images, bs=16):
    feats = []
    for i in range(0, len(images), bs):
        feats.append(backbone(images[i:i + bs]))  # ok
    return torch.cat(feats)


def probe():
    backbone = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
    backbone.requires_grad_(False)
    backbone.eval()
    images = torch.randn(64, 3, 16, 16)
    labels = torch.randint(0, 3, (64,))
    feats = extract(backbone, images)
    head = nn.Linear(8, 3)
    opt = torch.optim.Adam(head.parameters(), lr=1e-2)
    loss_log = []
    for epoch in range(3):
        loss = nn.functional.cross_entropy(head(feats), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        loss_log.append(loss.item())  # ok
    with torch.set_grad_enabled(False):
        scores = []
        for i in range(0, 64, 16):
            scores.append(head(feats[i:i + 16]))  # ok
    print(loss_log[-1], torch.cat(scores).shape)


if __name__ == "__main__":
    probe()
