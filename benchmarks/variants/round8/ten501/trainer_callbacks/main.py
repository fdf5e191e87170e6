import argparse

import torch
import torch.nn as nn
from torchvision import datasets, models, transforms

from trainer_callbacks.callbacks import AccuracyMeter, JSONLogger, LossHistory
from trainer_callbacks.trainer import Trainer


def build_loaders(root, batch_size):
    norm = transforms.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])
    train_tf = transforms.Compose([transforms.RandomResizedCrop(160), transforms.RandomHorizontalFlip(),
                                   transforms.ToTensor(), norm])
    val_tf = transforms.Compose([transforms.Resize(182), transforms.CenterCrop(160), transforms.ToTensor(), norm])
    train_ds = datasets.ImageFolder(f"{root}/train", transform=train_tf)
    val_ds = datasets.ImageFolder(f"{root}/val", transform=val_tf)
    return (torch.utils.data.DataLoader(train_ds, batch_size=batch_size, shuffle=True, num_workers=8, pin_memory=True),
            torch.utils.data.DataLoader(val_ds, batch_size=batch_size, num_workers=8), len(train_ds.classes))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", default="data/imagenette2-160")
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--bs", type=int, default=64)
    args = parser.parse_args()

    train_dl, val_dl, n_classes = build_loaders(args.root, args.bs)
    model = models.resnet50(weights="IMAGENET1K_V2")
    model.fc = nn.Linear(model.fc.in_features, n_classes)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, weight_decay=1e-4)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=args.epochs)

    loss_history = LossHistory()
    trainer = Trainer(model, nn.CrossEntropyLoss(), optimizer, scheduler,
                      callbacks=[loss_history, AccuracyMeter(), JSONLogger("logs/run.jsonl")],
                      device="cuda" if torch.cuda.is_available() else "cpu", grad_clip=5.0)
    trainer.fit(train_dl, val_dl, args.epochs)
    print("per-epoch mean batch loss:", [round(float(l), 4) for l in loss_history.epoch_losses])
    torch.save(model.state_dict(), "resnet50_imagenette.pt")


if __name__ == "__main__":
    main()
