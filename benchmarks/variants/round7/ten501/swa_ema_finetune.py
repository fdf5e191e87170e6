import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision
import torchvision.transforms as T
from torch.optim.swa_utils import AveragedModel, SWALR, update_bn
from torch.utils.data import DataLoader


class ModelEMA:
    def __init__(self, model, decay=0.9998):
        self.module = copy.deepcopy(model).eval()
        self.decay = decay
        for p in self.module.parameters():
            p.requires_grad_(False)

    @torch.no_grad()
    def update(self, model):
        msd = model.state_dict()
        for k, ema_v in self.module.state_dict().items():
            if ema_v.dtype.is_floating_point:
                ema_v.mul_(self.decay).add_(msd[k], alpha=1.0 - self.decay)  # ok


class RunningStats:
    def __init__(self, dim):
        self.n = 0
        self.mean = torch.zeros(dim)
        self.m2 = torch.zeros(dim)

    def update(self, x):
        x = x.detach().cpu()
        for row in x:
            self.n += 1
            delta = row - self.mean
            self.mean += delta / self.n  # ok
            self.m2 += delta * (row - self.mean)  # ok

    @property
    def var(self):
        return self.m2 / max(self.n - 1, 1)


@torch.no_grad()
def evaluate(model, loader, device):
    model.eval()
    loss_sum, correct, feats = 0.0, 0, []
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        logits = model(x)
        loss_sum += F.cross_entropy(logits, y, reduction="sum")  # ok
        correct += (logits.argmax(1) == y).sum()  # ok
        feats.append(logits)  # ok
    n = len(loader.dataset)
    return loss_sum.item() / n, correct.item() / n, torch.cat(feats)


def main(epochs=30, swa_start=20, device="cuda"):
    tf = T.Compose([T.Resize(224), T.ToTensor(), T.Normalize((0.485, 0.456, 0.406), (0.229, 0.224, 0.225))])
    train_set = torchvision.datasets.Flowers102("data", split="train", download=True, transform=tf)
    val_set = torchvision.datasets.Flowers102("data", split="val", download=True, transform=tf)
    train_loader = DataLoader(train_set, batch_size=32, shuffle=True, num_workers=8)
    val_loader = DataLoader(val_set, batch_size=128, num_workers=8)

    model = torchvision.models.resnet50(weights="IMAGENET1K_V2")
    model.fc = nn.Linear(model.fc.in_features, 102)
    model = model.to(device)
    ema = ModelEMA(model)
    swa_model = AveragedModel(model)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, weight_decay=1e-4)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=swa_start)
    swa_scheduler = SWALR(optimizer, swa_lr=0.005)
    feat_stats = RunningStats(102)

    for epoch in range(epochs):
        model.train()
        epoch_loss = torch.zeros((), device=device)
        seen = 0
        for x, y in train_loader:
            x, y = x.to(device), y.to(device)
            logits = model(x)
            loss = F.cross_entropy(logits, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            ema.update(model)
            feat_stats.update(logits)
            epoch_loss += loss.detach() * x.size(0)  # ok
            seen += x.size(0)
        if epoch >= swa_start:
            swa_model.update_parameters(model)
            swa_scheduler.step()
        else:
            scheduler.step()
        vl, va, _ = evaluate(model, val_loader, device)
        el, ea, _ = evaluate(ema.module, val_loader, device)
        print(f"epoch {epoch}: train {epoch_loss.item() / seen:.4f} val {vl:.4f}/{va:.3f} ema {el:.4f}/{ea:.3f}")

    update_bn(train_loader, swa_model, device=device)
    sl, sa, _ = evaluate(swa_model, val_loader, device)
    print(f"SWA: {sl:.4f}/{sa:.3f}; logit var mean {feat_stats.var.mean():.3f}")


if __name__ == "__main__":
    main()
