import math
import sys
import time
from collections import defaultdict

import torch
import torchvision
from torchvision.models.detection import fasterrcnn_resnet50_fpn_v2
from torchvision.models.detection.faster_rcnn import FastRCNNPredictor

from dataset import PennFudanDataset, get_transform


def collate_fn(batch):
    return tuple(zip(*batch))


def train_one_epoch(model, optimizer, data_loader, device, epoch, print_freq=20, scaler=None):
    model.train()
    lr_scheduler = None
    if epoch == 0:
        warmup_factor = 1.0 / 1000
        warmup_iters = min(1000, len(data_loader) - 1)
        lr_scheduler = torch.optim.lr_scheduler.LinearLR(optimizer, start_factor=warmup_factor, total_iters=warmup_iters)

    epoch_losses = defaultdict(float)
    running_total = 0.0
    start = time.time()
    for it, (images, targets) in enumerate(data_loader):
        images = [image.to(device) for image in images]
        targets = [{k: v.to(device) if isinstance(v, torch.Tensor) else v for k, v in t.items()} for t in targets]
        with torch.autocast(device_type="cuda", enabled=scaler is not None):
            loss_dict = model(images, targets)
            losses = sum(loss for loss in loss_dict.values())

        loss_value = losses.item()
        if not math.isfinite(loss_value):
            print(f"Loss is {loss_value}, stopping training")
            print({k: v.item() for k, v in loss_dict.items()})
            sys.exit(1)

        optimizer.zero_grad()
        if scaler is not None:
            scaler.scale(losses).backward()
            scaler.step(optimizer)
            scaler.update()
        else:
            losses.backward()
            optimizer.step()
        if lr_scheduler is not None:
            lr_scheduler.step()

        for k, v in loss_dict.items():
            epoch_losses[k] += v  # expect: TEN501
        running_total += loss_value  # ok

        if it % print_freq == 0:
            eta = (time.time() - start) / (it + 1) * (len(data_loader) - it - 1)
            print(f"Epoch [{epoch}] [{it}/{len(data_loader)}] loss {running_total / (it + 1):.4f} "
                  f"lr {optimizer.param_groups[0]['lr']:.6f} eta {eta:.0f}s")

    n = len(data_loader)
    return {k: float(v) / n for k, v in epoch_losses.items()}


@torch.inference_mode()
def evaluate_loss(model, data_loader, device):
    model.train()
    sums = defaultdict(float)
    for images, targets in data_loader:
        images = [img.to(device) for img in images]
        targets = [{k: v.to(device) for k, v in t.items()} for t in targets]
        loss_dict = model(images, targets)
        for k, v in loss_dict.items():
            sums[k] += v  # ok
    return {k: v.item() / len(data_loader) for k, v in sums.items()}


def main():
    device = torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu")
    dataset = PennFudanDataset("data/PennFudanPed", get_transform(train=True))
    dataset_test = PennFudanDataset("data/PennFudanPed", get_transform(train=False))
    indices = torch.randperm(len(dataset)).tolist()
    dataset = torch.utils.data.Subset(dataset, indices[:-50])
    dataset_test = torch.utils.data.Subset(dataset_test, indices[-50:])
    data_loader = torch.utils.data.DataLoader(dataset, batch_size=2, shuffle=True, num_workers=4, collate_fn=collate_fn)
    data_loader_test = torch.utils.data.DataLoader(dataset_test, batch_size=1, shuffle=False, num_workers=4, collate_fn=collate_fn)

    model = fasterrcnn_resnet50_fpn_v2(weights="DEFAULT")
    in_features = model.roi_heads.box_predictor.cls_score.in_features
    model.roi_heads.box_predictor = FastRCNNPredictor(in_features, 2)
    model.to(device)

    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.SGD(params, lr=0.005, momentum=0.9, weight_decay=0.0005)
    lr_scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=3, gamma=0.1)
    history = []
    for epoch in range(10):
        train_stats = train_one_epoch(model, optimizer, data_loader, device, epoch)
        lr_scheduler.step()
        val_stats = evaluate_loss(model, data_loader_test, device)
        history.append({"epoch": epoch, "train": train_stats, "val": val_stats})  # ok
        print(history[-1])
    torch.save(model.state_dict(), "fasterrcnn_pennfudan.pth")


if __name__ == "__main__":
    main()
