"""Fine-tune torchvision Faster R-CNN on a small custom detection dataset."""
from collections import defaultdict

import torch
import torchvision  # noqa: F401
from torchvision.models.detection import fasterrcnn_resnet50_fpn
from torchvision.models.detection.faster_rcnn import FastRCNNPredictor


def get_model(num_classes):
    model = fasterrcnn_resnet50_fpn(weights="DEFAULT")
    in_features = model.roi_heads.box_predictor.cls_score.in_features
    model.roi_heads.box_predictor = FastRCNNPredictor(in_features, num_classes)
    return model


def collate_fn(batch):
    return tuple(zip(*batch))


def train_one_epoch(model, optimizer, data_loader, device, epoch, history, print_freq=20):
    model.train()
    epoch_total = 0.0
    for it, (images, targets) in enumerate(data_loader):
        images = [img.to(device) for img in images]
        targets = [{k: v.to(device) for k, v in t.items()} for t in targets]

        loss_dict = model(images, targets)
        losses = sum(loss for loss in loss_dict.values())

        optimizer.zero_grad()
        losses.backward()
        optimizer.step()

        for name, value in loss_dict.items():
            history[name].append(value)  # expect: TEN501
        loss_value = losses.item()
        epoch_total += loss_value  # ok
        if it % print_freq == 0:
            print(f"[{epoch}] it {it} loss {loss_value:.3f}")
    return epoch_total / max(1, len(data_loader))


def collect_scores(model, data_loader, device):
    model.eval()
    all_scores = []
    with torch.no_grad():
        for images, _ in data_loader:
            images = [img.to(device) for img in images]
            detections = model(images)
            for det in detections:
                all_scores.append(det["scores"])  # ok
    return torch.cat(all_scores) if all_scores else torch.empty(0)


def main(train_ds, val_ds, num_classes=3, num_epochs=10):
    device = torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu")
    model = get_model(num_classes).to(device)
    train_loader = torch.utils.data.DataLoader(train_ds, batch_size=2, shuffle=True, collate_fn=collate_fn)
    val_loader = torch.utils.data.DataLoader(val_ds, batch_size=1, collate_fn=collate_fn)
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.SGD(params, lr=0.005, momentum=0.9, weight_decay=0.0005)
    lr_scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=3, gamma=0.1)
    history = defaultdict(list)
    for epoch in range(num_epochs):
        avg = train_one_epoch(model, optimizer, train_loader, device, epoch, history)
        lr_scheduler.step()
        scores = collect_scores(model, val_loader, device)
        print(f"epoch {epoch} avg loss {avg:.3f} mean det score {scores.mean().item():.3f}")
    return history
