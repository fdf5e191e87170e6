"""Hinton-style knowledge distillation: ResNet-56 teacher -> ResNet-20 student on CIFAR-100."""
import argparse

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from kd.data import cifar100_loaders
from kd.models import resnet20, resnet56


def distill_epoch(student, teacher, loader, optimizer, device, T=4.0, alpha=0.9):
    teacher.eval()
    student.train()
    terms = []
    teacher_cache = []
    agree, seen = 0, 0
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        with torch.no_grad():
            t_logits = teacher(x)
            t_probs = F.softmax(t_logits / T, dim=1)
        s_logits = student(x)
        kl = F.kl_div(F.log_softmax(s_logits / T, dim=1), t_probs, reduction="batchmean") * T * T
        ce = F.cross_entropy(s_logits, y)
        loss = alpha * kl + (1.0 - alpha) * ce

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

        terms.append({"kl": kl, "ce": ce})  # expect: TEN501
        teacher_cache.append(t_probs.cpu())  # ok
        agree += (s_logits.argmax(1) == t_logits.argmax(1)).float().sum()  # ok
        seen += y.size(0)

    summary = {k: torch.stack([t[k] for t in terms]).mean().item() for k in ("kl", "ce")}
    summary["agreement"] = float(agree) / seen
    return summary, torch.cat(teacher_cache)


@torch.no_grad()
def top1(model, loader, device):
    model.eval()
    correct = total = 0
    for x, y in loader:
        correct += (model(x.to(device)).argmax(1).cpu() == y).sum().item()
        total += y.size(0)
    return correct / total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--teacher_ckpt", required=True)
    ap.add_argument("--epochs", type=int, default=240)
    ap.add_argument("--T", type=float, default=4.0)
    ap.add_argument("--alpha", type=float, default=0.9)
    args = ap.parse_args()

    device = torch.device("cuda")
    train_loader, test_loader = cifar100_loaders(batch_size=64)
    teacher = resnet56(num_classes=100).to(device)
    teacher.load_state_dict(torch.load(args.teacher_ckpt, map_location=device))
    student = resnet20(num_classes=100).to(device)
    opt = torch.optim.SGD(student.parameters(), lr=0.05, momentum=0.9, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.MultiStepLR(opt, milestones=[150, 180, 210], gamma=0.1)

    print("teacher acc", top1(teacher, test_loader, device))
    for epoch in range(args.epochs):
        summary, _ = distill_epoch(student, teacher, train_loader, opt, device, T=args.T, alpha=args.alpha)
        sched.step()
        print(epoch, summary, "student acc", top1(student, test_loader, device))


if __name__ == "__main__":
    main()
