"""Fine-tune torchvision Faster R-CNN on a custom COCO-format dataset."""
import math
import sys
import time

import torch
import torchvision
from torchvision.models.detection.faster_rcnn import FastRCNNPredictor


def get_model(num_classes):
    model = torchvision.models.detection.fasterrcnn_resnet50_fpn_v2(weights="DEFAULT")
    in_features = model.roi_heads.box_predictor.cls_score.in_features
    model.roi_heads.box_predictor = FastRCNNPredictor(in_features, num_classes)
    return model


def collate_fn(batch):
    return tuple(zip(*batch))


def train_one_epoch(model, optimizer, loader, device, epoch, history, print_freq=20, warmup_iters=500):
    model.train()
    lr_scheduler = None
    if epoch == 0:
        lr_scheduler = torch.optim.lr_scheduler.LinearLR(
            optimizer, start_factor=1e-3, total_iters=min(warmup_iters, len(loader) - 1))

    running = {}
    smoothed = {}
    t0 = time.time()
    for i, (images, targets) in enumerate(loader):
        images = [img.to(device) for img in images]
        targets = [{k: v.to(device) for k, v in t.items()} for t in targets]

        loss_dict = model(images, targets)
        losses = sum(loss for loss in loss_dict.values())  # ok
        if not math.isfinite(losses.item()):
            print(f"Loss is {losses.item()}, stopping training", {k: v.item() for k, v in loss_dict.items()})
            sys.exit(1)

        optimizer.zero_grad()
        losses.backward()
        optimizer.step()
        if lr_scheduler is not None:
            lr_scheduler.step()

        for k, v in loss_dict.items():
            running[k] = running.get(k, 0.0) + v  # expect: TEN501
            smoothed[k] = 0.9 * smoothed.get(k, v.item()) + 0.1 * v.item()  # ok
        history.append((loss_dict["loss_classifier"], loss_dict["loss_box_reg"]))  # expect: TEN501

        if i % print_freq == 0:
            parts = "  ".join(f"{k}: {v:.4f}" for k, v in smoothed.items())
            print(f"Epoch [{epoch}] [{i}/{len(loader)}]  {parts}  lr: {optimizer.param_groups[0]['lr']:.6f}"
                  f"  time: {time.time() - t0:.1f}s")
    return {k: float(v) / len(loader) for k, v in running.items()}


@torch.inference_mode()
def collect_detections(model, loader, device, score_thr=0.05):
    model.eval()
    results = []
    for images, targets in loader:
        outputs = model([img.to(device) for img in images])
        for out, tgt in zip(outputs, targets):
            keep = out["scores"] > score_thr
            det = {"image_id": int(tgt["image_id"]),
                   "boxes": out["boxes"][keep].cpu(),
                   "scores": out["scores"][keep],
                   "labels": out["labels"][keep].cpu()}
            results.append(det)  # ok
    return results


def main(train_loader, val_loader, num_classes, epochs=12, device="cuda"):
    model = get_model(num_classes).to(device)
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.SGD(params, lr=0.02, momentum=0.9, weight_decay=1e-4)
    lr_sched = torch.optim.lr_scheduler.MultiStepLR(optimizer, milestones=[8, 11], gamma=0.1)
    history = []
    for epoch in range(epochs):
        epoch_means = train_one_epoch(model, optimizer, train_loader, device, epoch, history)
        lr_sched.step()
        dets = collect_detections(model, val_loader, device)
        print(f"epoch {epoch}: {epoch_means} | {len(dets)} images with detections")
        torch.save(model.state_dict(), f"frcnn_e{epoch:02d}.pt")
