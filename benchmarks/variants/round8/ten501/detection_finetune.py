"""Fine-tune Faster R-CNN on a small pedestrian dataset (VOC-style annotations)."""
import math
import os
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict

import torch
import torchvision
from PIL import Image
from torchvision.models.detection import fasterrcnn_resnet50_fpn
from torchvision.models.detection.faster_rcnn import FastRCNNPredictor
from torchvision.transforms import functional as TF

CLASSES = ("__background__", "person", "bicycle")


class VOCLikeDataset(torch.utils.data.Dataset):
    def __init__(self, root, split="train", train=True):
        self.root = root
        self.train = train
        with open(os.path.join(root, "ImageSets", f"{split}.txt")) as f:
            self.ids = [line.strip() for line in f if line.strip()]

    def __len__(self):
        return len(self.ids)

    def __getitem__(self, idx):
        img_id = self.ids[idx]
        img = Image.open(os.path.join(self.root, "JPEGImages", img_id + ".jpg")).convert("RGB")
        tree = ET.parse(os.path.join(self.root, "Annotations", img_id + ".xml"))
        boxes, labels = [], []
        for obj in tree.findall("object"):
            bb = obj.find("bndbox")
            boxes.append([float(bb.find(k).text) for k in ("xmin", "ymin", "xmax", "ymax")])
            labels.append(CLASSES.index(obj.find("name").text))
        image = TF.to_tensor(img)
        target = {
            "boxes": torch.tensor(boxes, dtype=torch.float32),
            "labels": torch.tensor(labels, dtype=torch.int64),
            "image_id": torch.tensor(idx),
        }
        if self.train and torch.rand(1) < 0.5:
            image = image.flip(-1)
            w = image.shape[-1]
            target["boxes"][:, [0, 2]] = w - target["boxes"][:, [2, 0]]
        return image, target


def collate_fn(batch):
    return tuple(zip(*batch))


def get_model(num_classes):
    model = fasterrcnn_resnet50_fpn(weights="DEFAULT")
    in_features = model.roi_heads.box_predictor.cls_score.in_features
    model.roi_heads.box_predictor = FastRCNNPredictor(in_features, num_classes)
    return model


def train_one_epoch(model, optimizer, loader, device, epoch, warmup=None, print_freq=20):
    model.train()
    running = defaultdict(float)
    epoch_total = 0.0
    for it, (images, targets) in enumerate(loader):
        images = [img.to(device) for img in images]
        targets = [{k: v.to(device) for k, v in t.items()} for t in targets]

        loss_dict = model(images, targets)
        losses = sum(loss for loss in loss_dict.values())  # ok
        loss_value = losses.item()
        if not math.isfinite(loss_value):
            print(f"Loss is {loss_value}, stopping training")
            print({k: v.item() for k, v in loss_dict.items()})
            sys.exit(1)

        optimizer.zero_grad()
        losses.backward()
        optimizer.step()
        if warmup is not None:
            warmup.step()

        for name, value in loss_dict.items():
            running[name] += value  # expect: TEN501
        epoch_total += loss_value  # ok
        if (it + 1) % print_freq == 0:
            parts = " ".join(f"{k}={v / print_freq:.4f}" for k, v in running.items())
            print(f"Epoch [{epoch}] [{it + 1}/{len(loader)}] {parts} lr={optimizer.param_groups[0]['lr']:.5f}")
            running.clear()
    return epoch_total / len(loader)


@torch.inference_mode()
def collect_detections(model, loader, device, score_thresh=0.05):
    model.eval()
    detections = []
    for images, targets in loader:
        outputs = model([img.to(device) for img in images])
        for tgt, out in zip(targets, outputs):
            keep = out["scores"] >= score_thresh
            detections.append({"image_id": int(tgt["image_id"]), **{k: v[keep].cpu() for k, v in out.items()}})  # ok
    return detections


def main(root="data/peds", epochs=12, device="cuda"):
    train_ds = VOCLikeDataset(root, "train", train=True)
    val_ds = VOCLikeDataset(root, "val", train=False)
    train_dl = torch.utils.data.DataLoader(train_ds, batch_size=4, shuffle=True, num_workers=4, collate_fn=collate_fn)
    val_dl = torch.utils.data.DataLoader(val_ds, batch_size=2, shuffle=False, num_workers=4, collate_fn=collate_fn)

    model = get_model(len(CLASSES)).to(device)
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.SGD(params, lr=0.005, momentum=0.9, weight_decay=5e-4)
    lr_sched = torch.optim.lr_scheduler.MultiStepLR(optimizer, milestones=[8, 11], gamma=0.1)
    warmup = torch.optim.lr_scheduler.LinearLR(optimizer, start_factor=1e-3, total_iters=min(500, len(train_dl) - 1))

    for epoch in range(epochs):
        avg = train_one_epoch(model, optimizer, train_dl, device, epoch, warmup if epoch == 0 else None)
        lr_sched.step()
        dets = collect_detections(model, val_dl, device)
        n_boxes = sum(len(d["boxes"]) for d in dets)
        print(f"epoch {epoch}: train loss {avg:.4f}, {n_boxes} val detections")
        torch.save(model.state_dict(), f"frcnn_epoch{epoch}.pth")


if __name__ == "__main__":
    main()
