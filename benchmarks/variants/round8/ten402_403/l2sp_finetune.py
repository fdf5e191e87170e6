"""Transfer learning with the L2-SP regularizer (Li et al., 2018)."""
import argparse
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision
from torch.utils.data import DataLoader
from torchvision import transforms


class L2SP(nn.Module):
    """alpha/2 * ||w_s - w_s^0||^2 + beta/2 * ||w_new||^2"""

    def __init__(self, backbone, alpha=0.1, beta=0.01):
        super().__init__()
        self.backbone = backbone
        self.alpha = alpha
        self.beta = beta
        self.source_weights = [p.detach() for p in backbone.parameters()]  # expect: TEN402

    def forward(self, head):
        sp = sum(((p - w0) ** 2).sum() for p, w0 in zip(self.backbone.parameters(), self.source_weights))
        l2 = sum((p ** 2).sum() for p in head.parameters())
        return 0.5 * self.alpha * sp + 0.5 * self.beta * l2


class Classifier(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        resnet = torchvision.models.resnet50(weights=torchvision.models.ResNet50_Weights.IMAGENET1K_V2)
        self.backbone = nn.Sequential(*list(resnet.children())[:-1])
        self.head = nn.Linear(resnet.fc.in_features, num_classes)

    def forward(self, x):
        return self.head(torch.flatten(self.backbone(x), 1))


def get_loaders(root, batch_size):
    norm = transforms.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])
    train_tf = transforms.Compose([transforms.RandomResizedCrop(224), transforms.RandomHorizontalFlip(), transforms.ToTensor(), norm])
    test_tf = transforms.Compose([transforms.Resize(256), transforms.CenterCrop(224), transforms.ToTensor(), norm])
    train = torchvision.datasets.ImageFolder(f"{root}/train", train_tf)
    test = torchvision.datasets.ImageFolder(f"{root}/test", test_tf)
    return (
        DataLoader(train, batch_size=batch_size, shuffle=True, num_workers=8, pin_memory=True, drop_last=True),
        DataLoader(test, batch_size=batch_size, num_workers=8),
        len(train.classes),
    )


@torch.no_grad()
def evaluate(model, loader, device):
    model.eval()
    hit = n = 0
    for x, y in loader:
        pred = model(x.to(device)).argmax(1)
        hit += (pred.cpu() == y).sum().item()
        n += y.numel()
    return hit / n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default="data/cub200")
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--alpha", type=float, default=0.1)
    ap.add_argument("--beta", type=float, default=0.01)
    ap.add_argument("--seeds", type=int, default=3)
    args = ap.parse_args()

    device = torch.device("cuda")
    train_loader, test_loader, num_classes = get_loaders(args.root, 48)
    model = Classifier(num_classes).to(device)
    head_init = {k: v.clone() for k, v in model.head.state_dict().items()}  # ok
    backbone_init = copy.deepcopy(model.backbone.state_dict())  # ok

    results = []
    for seed in range(args.seeds):
        torch.manual_seed(seed)
        model.backbone.load_state_dict(backbone_init)
        model.head.load_state_dict(head_init)
        reg = L2SP(model.backbone, args.alpha, args.beta)
        optimizer = torch.optim.SGD([
            {"params": model.backbone.parameters(), "lr": args.lr * 0.1},
            {"params": model.head.parameters(), "lr": args.lr},
        ], momentum=0.9)
        scheduler = torch.optim.lr_scheduler.MultiStepLR(optimizer, [int(args.epochs * 0.67)], gamma=0.1)
        for epoch in range(args.epochs):
            model.train()
            for x, y in train_loader:
                x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
                loss = F.cross_entropy(model(x), y) + reg(model.head)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            scheduler.step()
        acc = evaluate(model, test_loader, device)
        print(f"seed {seed}: top1 {acc:.4f}")
        results.append(acc)
    print(f"mean top1 {sum(results) / len(results):.4f}")


if __name__ == "__main__":
    main()
