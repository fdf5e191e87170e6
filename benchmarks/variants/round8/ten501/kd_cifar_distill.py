"""Hinton-style knowledge distillation: ResNet-50 teacher -> MobileNetV2 student on CIFAR-100."""
import argparse
import json

import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision
from torchvision import transforms


def build_loaders(batch_size):
    mean, std = (0.5071, 0.4865, 0.4409), (0.2673, 0.2564, 0.2762)
    train_tf = transforms.Compose([
        transforms.RandomCrop(32, padding=4),
        transforms.RandomHorizontalFlip(),
        transforms.ToTensor(),
        transforms.Normalize(mean, std),
    ])
    test_tf = transforms.Compose([transforms.ToTensor(), transforms.Normalize(mean, std)])
    train = torchvision.datasets.CIFAR100("data", train=True, download=True, transform=train_tf)
    test = torchvision.datasets.CIFAR100("data", train=False, download=True, transform=test_tf)
    return (torch.utils.data.DataLoader(train, batch_size=batch_size, shuffle=True, num_workers=8),
            torch.utils.data.DataLoader(test, batch_size=256, num_workers=8))


def kd_terms(s_logits, t_logits, targets, T):
    return {
        "kd": F.kl_div(F.log_softmax(s_logits / T, dim=1), F.softmax(t_logits / T, dim=1),
                       reduction="batchmean") * T * T,
        "ce": F.cross_entropy(s_logits, targets),
    }


def distill_epoch(student, teacher, loader, optimizer, T, alpha, device):
    student.train()
    teacher.eval()
    epoch_stats = {}
    n_batches = 0
    for x, y in loader:
        x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
        with torch.no_grad():
            t_logits = teacher(x)
        s_logits = student(x)
        terms = kd_terms(s_logits, t_logits, y, T)
        loss = alpha * terms["kd"] + (1.0 - alpha) * terms["ce"]

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

        for name, term in terms.items():
            epoch_stats[name] = epoch_stats.get(name, 0.0) + term  # expect: TEN501
        agree = (s_logits.argmax(1) == t_logits.argmax(1)).float().mean()
        epoch_stats["agreement"] = epoch_stats.get("agreement", 0.0) + agree  # ok
        n_batches += 1
    return {k: float(v) / n_batches for k, v in epoch_stats.items()}


@torch.no_grad()
def evaluate(model, loader, device):
    model.eval()
    correct, total = 0, 0
    for x, y in loader:
        pred = model(x.to(device)).argmax(1)
        correct += (pred == y.to(device)).sum().item()  # ok
        total += y.size(0)
    return 100.0 * correct / total


@torch.no_grad()
def cache_teacher_logits(teacher, loader, device):
    teacher.eval()
    chunks = []
    for x, _ in loader:
        chunks.append(teacher(x.to(device)).float().cpu())  # ok
    return torch.cat(chunks)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--teacher-ckpt", required=True)
    parser.add_argument("--epochs", type=int, default=240)
    parser.add_argument("--T", type=float, default=4.0)
    parser.add_argument("--alpha", type=float, default=0.9)
    args = parser.parse_args()
    device = torch.device("cuda")

    train_loader, test_loader = build_loaders(128)
    teacher = torchvision.models.resnet50(num_classes=100)
    teacher.load_state_dict(torch.load(args.teacher_ckpt, map_location="cpu"))
    teacher.to(device)
    student = torchvision.models.mobilenet_v2(num_classes=100).to(device)

    print(f"teacher acc {evaluate(teacher, test_loader, device):.2f}")
    test_teacher_logits = cache_teacher_logits(teacher, test_loader, device)
    torch.save(test_teacher_logits, "teacher_test_logits.pt")

    optimizer = torch.optim.SGD(student.parameters(), lr=0.05, momentum=0.9, weight_decay=5e-4)
    scheduler = torch.optim.lr_scheduler.MultiStepLR(optimizer, milestones=[150, 180, 210], gamma=0.1)
    log = []
    for epoch in range(args.epochs):
        stats = distill_epoch(student, teacher, train_loader, optimizer, args.T, args.alpha, device)
        stats["test_acc"] = evaluate(student, test_loader, device)
        scheduler.step()
        log.append({"epoch": epoch, **stats})
        print(json.dumps(log[-1]))
    torch.save(student.state_dict(), "student_mbv2.pth")


if __name__ == "__main__":
    main()
