"""Gatys et al. neural style transfer, optimising the pixels with L-BFGS."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def gram(feat):
    b, c, h, w = feat.shape
    f = feat.view(b, c, h * w)
    return f @ f.transpose(1, 2) / (c * h * w)


class FeatureNet(nn.Module):
    """Stand-in for a truncated VGG; returns activations at a few depths."""

    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([
            nn.Sequential(nn.Conv2d(3, 32, 3, padding=1), nn.ReLU()),
            nn.Sequential(nn.MaxPool2d(2), nn.Conv2d(32, 64, 3, padding=1), nn.ReLU()),
            nn.Sequential(nn.MaxPool2d(2), nn.Conv2d(64, 128, 3, padding=1), nn.ReLU()),
        ])
        for p in self.parameters():
            p.requires_grad_(False)

    def forward(self, x):
        feats = []
        for blk in self.blocks:
            x = blk(x)
            feats.append(x)  # ok
        return feats


def stylise(content, style, steps=30, style_weight=1e6, content_weight=1.0):
    net = FeatureNet().eval()
    with torch.no_grad():
        style_grams = [gram(f) for f in net(style)]
        content_feat = net(content)[-1]
    image = content.clone().requires_grad_(True)
    opt = torch.optim.LBFGS([image], max_iter=20)
    history = []
    style_scores = []

    for step in range(steps):
        def closure():
            with torch.no_grad():
                image.clamp_(0, 1)
            opt.zero_grad()
            feats = net(image)
            style_score = 0.0
            for f, g in zip(feats, style_grams):
                style_score = style_score + F.mse_loss(gram(f), g)  # ok
            content_score = F.mse_loss(feats[-1], content_feat)
            total = style_weight * style_score + content_weight * content_score
            total.backward()
            style_scores.append(style_score)  # expect: TEN501
            return total

        loss = opt.step(closure)
        history.append(loss)  # expect: TEN501
        if step % 5 == 0:
            print(step, float(loss))
    with torch.no_grad():
        image.clamp_(0, 1)
    return image.detach(), history
