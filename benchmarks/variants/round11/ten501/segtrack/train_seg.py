import torch
import torch.nn as nn
import torch.nn.functional as F

from .callbacks import BestCheckpoint, LossCurve
from .logger import MetricLogger


class MiniUNet(nn.Module):
    def __init__(self, n_cls=3):
        super().__init__()
        self.down = nn.Sequential(nn.Conv2d(3, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.mid = nn.Sequential(nn.Conv2d(32, 64, 3, padding=1), nn.ReLU())
        self.up = nn.ConvTranspose2d(64, 32, 2, stride=2)
        self.out = nn.Conv2d(35, n_cls, 1)

    def forward(self, x):
        h = self.up(self.mid(self.down(x)))
        return self.out(torch.cat([h, x], dim=1))


def dice_loss(logits, target, eps=1.0):
    probs = logits.softmax(1)
    onehot = F.one_hot(target, probs.size(1)).permute(0, 3, 1, 2).float()
    inter = (probs * onehot).sum((0, 2, 3))
    denom = probs.sum((0, 2, 3)) + onehot.sum((0, 2, 3))
    return 1 - ((2 * inter + eps) / (denom + eps)).mean()


class SegTrainer:
    def __init__(self, model, callbacks=()):
        self.model = model
        self.opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
        self.logger = MetricLogger()
        self.callbacks = list(callbacks)
        self.step = 0

    def save(self, path):
        torch.save(self.model.state_dict(), path)

    def fit(self, loader, epochs=10):
        for epoch in range(epochs):
            self.model.train()
            for img, mask in loader:
                logits = self.model(img)
                ce = F.cross_entropy(logits, mask)
                dice = dice_loss(logits, mask)
                loss = ce + dice
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
                self.step += 1  # ok

                self.logger.log(self.step, ce=ce, dice=dice.item())  # expect: TEN501
                self.logger.log_scalar("loss", loss)  # ok
                for cb in self.callbacks:
                    cb.on_batch_end(self, loss)  # either
            for cb in self.callbacks:
                cb.on_epoch_end(self, epoch)


def main(loader):
    curve = LossCurve()
    trainer = SegTrainer(MiniUNet(), callbacks=[curve, BestCheckpoint("best.pt")])
    trainer.fit(loader)
    return curve.curve


def fit_with_curve(model, loader, epochs=5):
    curve = LossCurve()
    ckpt = BestCheckpoint("seg_best.pt")
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        for img, mask in loader:
            loss = F.cross_entropy(model(img), mask)
            opt.zero_grad()
            loss.backward()
            opt.step()
            curve.on_batch_end(None, loss)  # expect: TEN501
            ckpt.on_batch_end(None, loss)  # ok
    return curve.curve
