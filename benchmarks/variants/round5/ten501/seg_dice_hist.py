"""Tiny U-Net-ish segmentation with per-class soft Dice tracked in a dict of lists."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

NUM_CLASSES = 3


class TinySegNet(nn.Module):
    def __init__(self, c_in=1, c=16, n_cls=NUM_CLASSES):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(c_in, c, 3, padding=1), nn.ReLU(), nn.Conv2d(c, c, 3, padding=1), nn.ReLU())
        self.down = nn.Conv2d(c, 2 * c, 3, stride=2, padding=1)
        self.up = nn.ConvTranspose2d(2 * c, c, 2, stride=2)
        self.head = nn.Conv2d(2 * c, n_cls, 1)

    def forward(self, x):
        e = self.enc(x)
        u = self.up(F.relu(self.down(e)))
        return self.head(torch.cat([e, u], dim=1))


def dice_per_class(logits, mask, n_cls=NUM_CLASSES, eps=1e-6):
    probs = logits.softmax(dim=1)
    onehot = F.one_hot(mask, n_cls).permute(0, 3, 1, 2).float()
    inter = (probs * onehot).sum(dim=(0, 2, 3))
    denom = probs.sum(dim=(0, 2, 3)) + onehot.sum(dim=(0, 2, 3))
    dice = (2 * inter + eps) / (denom + eps)
    return {f"dice_{c}": dice[c] for c in range(n_cls)}


def main(epochs=2):
    torch.manual_seed(0)
    imgs = torch.randn(64, 1, 16, 16)
    masks = (imgs[:, 0] > 0.5).long() + (imgs[:, 0] > 1.2).long()
    train_dl = DataLoader(TensorDataset(imgs[:48], masks[:48]), batch_size=8, shuffle=True)
    val_dl = DataLoader(TensorDataset(imgs[48:], masks[48:]), batch_size=8)

    net = TinySegNet()
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    hist = defaultdict(list)
    val_hist = defaultdict(list)
    for epoch in range(epochs):
        net.train()
        for img, mask in train_dl:
            logits = net(img)
            dices = dice_per_class(logits, mask)
            loss = F.cross_entropy(logits, mask) + (1 - torch.stack(list(dices.values())).mean())
            opt.zero_grad()
            loss.backward()
            opt.step()
            for k, v in dices.items():
                hist[k].append(v)  # expect: TEN501
            hist["loss"].append(loss.item())  # ok

        net.eval()
        with torch.no_grad():
            for img, mask in val_dl:
                for k, v in dice_per_class(net(img), mask).items():
                    val_hist[k].append(v)  # ok
        summary = {k: round(torch.stack(v[-len(val_dl):]).mean().item(), 3) for k, v in val_hist.items()}
        print(f"epoch {epoch}: train loss {hist['loss'][-1]:.3f} val {summary}")


if __name__ == "__main__":
    main()
