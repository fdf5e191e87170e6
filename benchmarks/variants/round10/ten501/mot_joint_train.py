"""Joint detection + re-identification training (FairMOT-style) for multi-object tracking."""
import datetime
import math
import sys
import time

import torch
import torch.nn.functional as F

from mot.datasets import JointDataset, collate_targets
from mot.losses import SetCriterion, HungarianMatcher
from mot.models import build_tracker_model


def train_one_epoch(model, criterion, loader, optimizer, device, epoch, max_norm=0.1, print_freq=50):
    model.train()
    criterion.train()
    stats = {}
    weight_dict = criterion.weight_dict
    t0 = time.time()
    for it, (imgs, targets) in enumerate(loader):
        imgs = imgs.to(device, non_blocking=True)
        targets = [{k: v.to(device) for k, v in t.items()} for t in targets]

        outputs = model(imgs)
        loss_dict = criterion(outputs, targets)
        losses = sum(loss_dict[k] * weight_dict[k] for k in loss_dict if k in weight_dict)

        if not math.isfinite(losses.item()):
            print(f"Loss is {losses.item()}, stopping training")
            print({k: v.item() for k, v in loss_dict.items()})
            sys.exit(1)

        optimizer.zero_grad()
        losses.backward()
        if max_norm > 0:
            torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()

        for k, v in loss_dict.items():
            stats[k] = stats.get(k, 0.0) + v  # expect: TEN501

        if it % print_freq == 0:
            eta = datetime.timedelta(seconds=int((time.time() - t0) / (it + 1) * (len(loader) - it)))
            msg = "  ".join(f"{k}: {float(v) / (it + 1):.4f}" for k, v in stats.items())
            print(f"Epoch [{epoch}] [{it}/{len(loader)}] eta {eta}  {msg}")

    n = max(len(loader), 1)
    return {k: float(v) / n for k, v in stats.items()}


def evaluate_losses(model, criterion, loader, device):
    model.eval()
    criterion.eval()
    stats = {}
    id_embeddings, id_labels = [], []
    for imgs, targets in loader:
        imgs = imgs.to(device)
        targets = [{k: v.to(device) for k, v in t.items()} for t in targets]
        with torch.no_grad():
            outputs = model(imgs)
            loss_dict = criterion(outputs, targets)
        for k, v in loss_dict.items():
            stats[k] = stats.get(k, 0.0) + v.item()  # ok
        id_embeddings.append(F.normalize(outputs["reid_emb"], dim=-1).detach().cpu())  # ok
        id_labels.append(torch.cat([t["ids"] for t in targets]).cpu())
    n = max(len(loader), 1)
    return {k: v / n for k, v in stats.items()}, torch.cat(id_embeddings), torch.cat(id_labels)


def main(cfg):
    device = torch.device(cfg.device)
    model = build_tracker_model(cfg).to(device)
    matcher = HungarianMatcher(cost_class=2, cost_bbox=5, cost_giou=2)
    criterion = SetCriterion(cfg.num_classes, matcher,
                             weight_dict={"det_cls": 2.0, "det_box": 5.0, "det_giou": 2.0, "reid": 1.0},
                             nid=cfg.num_identities).to(device)
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, lr=cfg.lr, weight_decay=1e-4)
    lr_sched = torch.optim.lr_scheduler.StepLR(optimizer, cfg.lr_drop)

    train_set = JointDataset(cfg.train_root, cfg.train_list, train=True)
    val_set = JointDataset(cfg.val_root, cfg.val_list, train=False)
    train_loader = torch.utils.data.DataLoader(train_set, batch_size=cfg.batch_size, shuffle=True,
                                               num_workers=8, collate_fn=collate_targets)
    val_loader = torch.utils.data.DataLoader(val_set, batch_size=cfg.batch_size, shuffle=False,
                                             num_workers=4, collate_fn=collate_targets)

    for epoch in range(cfg.epochs):
        train_stats = train_one_epoch(model, criterion, train_loader, optimizer, device, epoch)
        lr_sched.step()
        val_stats, embs, ids = evaluate_losses(model, criterion, val_loader, device)
        sim = embs @ embs.T
        same = ids[:, None] == ids[None, :]
        print(epoch, train_stats, val_stats,
              "pos-sim", sim[same].mean().item(), "neg-sim", sim[~same].mean().item())
        torch.save({"model": model.state_dict(), "epoch": epoch}, f"{cfg.out_dir}/ckpt_{epoch:03d}.pth")
