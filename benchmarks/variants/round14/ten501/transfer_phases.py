"""Fine-tune a head on a frozen backbone with the classic train/val phase loop."""
import copy
from collections import defaultdict

import torch
import torch.nn as nn


def backbone_net():
    return nn.Sequential(nn.Conv2d(1, 6, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(2), nn.Flatten())


def main(num_epochs=2, bs=16):
    torch.manual_seed(0)
    images = torch.randn(96, 1, 10, 10)
    labels = (images.mean(dim=(1, 2, 3)) > 0).long()
    dataloaders = {"train": list(zip(images[:64].split(bs), labels[:64].split(bs))),
                   "val": list(zip(images[64:].split(bs), labels[64:].split(bs)))}
    backbone = backbone_net()
    backbone.requires_grad_(False)
    backbone.eval()
    head = nn.Linear(24, 2)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(head.parameters(), lr=0.05, momentum=0.9)

    best_acc, best_wts = 0.0, copy.deepcopy(head.state_dict())
    phase_logits = defaultdict(list)
    feat_cache = []
    for epoch in range(num_epochs):
        for phase in ["train", "val"]:
            head.train(phase == "train")
            running_loss, running_corrects = 0.0, 0
            for inputs, targets in dataloaders[phase]:
                optimizer.zero_grad()
                feats = backbone(inputs)
                feat_cache.append(feats)  # ok
                with torch.set_grad_enabled(phase == "train"):
                    outputs = head(feats)
                    _, preds = torch.max(outputs, 1)
                    loss = criterion(outputs, targets)
                    if phase == "train":
                        loss.backward()
                        optimizer.step()
                running_loss += loss.item() * inputs.size(0)  # ok
                running_corrects += torch.sum(preds == targets)  # ok
                phase_logits[phase].append(outputs)  # expect: TEN501
            n = sum(t.numel() for _, t in dataloaders[phase])
            epoch_acc = running_corrects.double() / n
            print(f"{epoch} {phase}: loss={running_loss / n:.4f} acc={epoch_acc.item():.3f}")
            if phase == "val" and epoch_acc > best_acc:
                best_acc = max(best_acc, epoch_acc)  # ok
                best_wts = copy.deepcopy(head.state_dict())
    head.load_state_dict(best_wts)
    print("best val acc", float(best_acc), "cached feats", len(feat_cache))


if __name__ == "__main__":
    main()
