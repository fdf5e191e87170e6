"""U-Net-lite segmentation training using MetricLogger (meters take tensors directly)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from meters import MetricLogger


class TinySegNet(nn.Module):
    def __init__(self, n_cls=4):
        super().__init__()
        self.down = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.mid = nn.Sequential(nn.Conv2d(16, 32, 3, padding=1), nn.ReLU())
        self.up = nn.ConvTranspose2d(32, 16, 2, stride=2)
        self.out = nn.Conv2d(16, n_cls, 1)

    def forward(self, x):
        return self.out(F.relu(self.up(self.mid(self.down(x)))))


def dice_loss(logits, target, eps=1.0):
    probs = logits.softmax(1)
    onehot = F.one_hot(target, probs.size(1)).permute(0, 3, 1, 2).float()
    inter = (probs * onehot).sum((2, 3))
    return 1 - ((2 * inter + eps) / (probs.sum((2, 3)) + onehot.sum((2, 3)) + eps)).mean()


@torch.no_grad()
def evaluate(model, batches):
    model.eval()
    ious = []
    for x, y in batches:
        pred = model(x).argmax(1)
        inter = ((pred == y) & (y > 0)).sum()
        union = ((pred > 0) | (y > 0)).sum()
        ious.append(inter / union.clamp(min=1))  # ok
    model.train()
    return torch.stack(ious).mean().item()


def main(epochs=2, iters=60):
    model = TinySegNet()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    mk = lambda: (torch.randn(4, 3, 64, 64), torch.randint(0, 4, (4, 64, 64)))
    val = [mk() for _ in range(5)]
    for epoch in range(epochs):
        logger = MetricLogger()
        for it in range(iters):
            x, y = mk()
            logits = model(x)
            ce = F.cross_entropy(logits, y)
            dl = dice_loss(logits, y)
            loss = ce + dl
            opt.zero_grad()
            loss.backward()
            opt.step()
            logger.update(n=x.size(0), loss=loss, ce=ce, dice=dl)
        print(f"epoch {epoch} {logger} val mIoU-ish {evaluate(model, val):.3f}")


if __name__ == "__main__":
    main()
