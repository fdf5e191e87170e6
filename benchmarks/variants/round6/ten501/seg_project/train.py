"""Entry point: python -m seg_project.train"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from seg_project.engine import evaluate, evaluate_fast, train_one_epoch

NUM_CLASSES = 3


class TinyFCN(nn.Module):
    def __init__(self, num_classes=NUM_CLASSES, aux_loss=True):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
                                      nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU())
        self.classifier = nn.Conv2d(16, num_classes, 1)
        self.aux_classifier = nn.Conv2d(16, num_classes, 1) if aux_loss else None

    def forward(self, x):
        size = x.shape[-2:]
        feats = self.backbone(x)
        result = {"out": F.interpolate(self.classifier(feats), size=size, mode="bilinear", align_corners=False)}
        if self.aux_classifier is not None:
            result["aux"] = F.interpolate(self.aux_classifier(feats), size=size, mode="bilinear",
                                          align_corners=False)
        return result


def synthetic_split(n_batches, seed, bs=2, hw=16):
    g = torch.Generator().manual_seed(seed)
    out = []
    for _ in range(n_batches):
        img = torch.rand(bs, 3, hw, hw, generator=g)
        target = (img[:, 0] * NUM_CLASSES).long().clamp_max(NUM_CLASSES - 1)
        target[:, :2, :2] = 255
        out.append((img, target))
    return out


def main(epochs=2):
    torch.manual_seed(0)
    model = TinyFCN()
    train_loader = synthetic_split(4, seed=0)
    val_loader = synthetic_split(2, seed=1)
    params_to_optimize = [
        {"params": [p for p in model.backbone.parameters() if p.requires_grad]},
        {"params": [p for p in model.classifier.parameters() if p.requires_grad]},
        {"params": [p for p in model.aux_classifier.parameters() if p.requires_grad], "lr": 0.02},
    ]
    optimizer = torch.optim.SGD(params_to_optimize, lr=0.01, momentum=0.9, weight_decay=1e-4)
    iters = len(train_loader) * epochs
    lr_scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda x: (1 - x / iters) ** 0.9)
    history = []
    for epoch in range(epochs):
        stats = train_one_epoch(model, optimizer, train_loader, lr_scheduler, epoch)
        confmat, val_loss = evaluate(model, val_loader, NUM_CLASSES)
        history.append({**stats, "val_loss": val_loss})
        print(confmat, f"val_loss {val_loss:.4f}")
    confmat, val_loss = evaluate_fast(model, val_loader, NUM_CLASSES)
    print("final", confmat, f"val_loss {val_loss:.4f}", len(history))


if __name__ == "__main__":
    main()
