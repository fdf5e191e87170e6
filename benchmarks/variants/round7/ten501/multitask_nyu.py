import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader

from nyuv2 import NYUv2
from segnet import SegNetMTL


class UncertaintyWeighting(nn.Module):
    def __init__(self, n_tasks):
        super().__init__()
        self.log_vars = nn.Parameter(torch.zeros(n_tasks))

    def forward(self, losses):
        precision = torch.exp(-self.log_vars)
        return (precision * losses).sum() + self.log_vars.sum()


def depth_loss(pred, target):
    mask = (target.sum(dim=1, keepdim=True) != 0).float()
    return torch.sum(torch.abs(pred - target) * mask) / torch.nonzero(mask, as_tuple=False).size(0)


def normal_loss(pred, target):
    mask = (target.sum(dim=1, keepdim=True) != 0).float()
    pred = F.normalize(pred, dim=1)
    return 1 - torch.sum(pred * target * mask) / torch.nonzero(mask, as_tuple=False).size(0)


def compute_miou(pred, target, num_classes=13):
    pred = pred.argmax(1)
    ious = []
    for c in range(num_classes):
        inter = ((pred == c) & (target == c)).sum()
        union = ((pred == c) | (target == c)).sum()
        if union > 0:
            ious.append(inter.float() / union.float())  # ok
    return torch.stack(ious).mean()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", default="data/nyuv2")
    parser.add_argument("--epochs", type=int, default=200)
    parser.add_argument("--bs", type=int, default=2)
    args = parser.parse_args()

    device = torch.device("cuda")
    train_loader = DataLoader(NYUv2(args.root, train=True, augmentation=True), batch_size=args.bs, shuffle=True)
    test_loader = DataLoader(NYUv2(args.root, train=False), batch_size=args.bs, shuffle=False)
    model = SegNetMTL().to(device)
    weighting = UncertaintyWeighting(3).to(device)
    optimizer = torch.optim.Adam(list(model.parameters()) + list(weighting.parameters()), lr=1e-4)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=100, gamma=0.5)

    step_log = []
    weight_hist = []
    for epoch in range(args.epochs):
        model.train()
        for images, seg, depth, normal in train_loader:
            images, seg, depth, normal = images.to(device), seg.long().to(device), depth.to(device), normal.to(device)
            seg_pred, depth_pred, normal_pred = model(images)
            loss_seg = F.nll_loss(seg_pred, seg, ignore_index=-1)
            loss_depth = depth_loss(depth_pred, depth)
            loss_normal = normal_loss(normal_pred, normal)
            loss = weighting(torch.stack([loss_seg, loss_depth, loss_normal]))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            step_log.append((loss_seg, loss_depth, loss_normal))  # expect: TEN501
        scheduler.step()
        weight_hist.append(torch.exp(-weighting.log_vars).detach().cpu())  # ok

        model.eval()
        val_terms = []
        with torch.no_grad():
            for images, seg, depth, normal in test_loader:
                images, seg, depth, normal = images.to(device), seg.long().to(device), depth.to(device), normal.to(device)
                seg_pred, depth_pred, normal_pred = model(images)
                val_terms.append((compute_miou(seg_pred, seg), depth_loss(depth_pred, depth)))  # ok
        miou = torch.stack([t[0] for t in val_terms]).mean().item()
        abs_err = torch.stack([t[1] for t in val_terms]).mean().item()
        recent = torch.tensor([[float(x) for x in terms] for terms in step_log[-len(train_loader):]]).mean(0)
        print(f"Epoch {epoch:04d} | train seg {recent[0]:.4f} depth {recent[1]:.4f} normal {recent[2]:.4f} "
              f"| test mIoU {miou:.4f} absErr {abs_err:.4f} | w {weight_hist[-1].tolist()}")


if __name__ == "__main__":
    main()
