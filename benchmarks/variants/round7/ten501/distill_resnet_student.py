import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision
import torchvision.transforms as T
from torch.utils.data import DataLoader


def kd_loss(student_logits, teacher_logits, labels, T=4.0, alpha=0.9):
    soft = F.kl_div(
        F.log_softmax(student_logits / T, dim=1),
        F.softmax(teacher_logits / T, dim=1),
        reduction="batchmean",
    ) * (T * T)
    hard = F.cross_entropy(student_logits, labels)
    return alpha * soft + (1.0 - alpha) * hard


def expected_calibration_error(logits, labels, n_bins=15):
    probs = logits.softmax(dim=1)
    conf, pred = probs.max(dim=1)
    acc = pred.eq(labels).float()
    bins = torch.linspace(0, 1, n_bins + 1, device=logits.device)
    ece = torch.zeros((), device=logits.device)
    for lo, hi in zip(bins[:-1], bins[1:]):
        in_bin = (conf > lo) & (conf <= hi)
        if in_bin.any():
            ece += in_bin.float().mean() * (conf[in_bin].mean() - acc[in_bin].mean()).abs()
    return ece.item()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--teacher", default="checkpoints/resnet50_cifar100.pth")
    parser.add_argument("--epochs", type=int, default=120)
    parser.add_argument("--T", type=float, default=4.0)
    parser.add_argument("--alpha", type=float, default=0.9)
    args = parser.parse_args()
    device = torch.device("cuda")

    mean, std = (0.5071, 0.4865, 0.4409), (0.2673, 0.2564, 0.2762)
    train_tf = T.Compose([T.RandomCrop(32, 4), T.RandomHorizontalFlip(), T.ToTensor(), T.Normalize(mean, std)])
    train_set = torchvision.datasets.CIFAR100("data", train=True, download=True, transform=train_tf)
    loader = DataLoader(train_set, batch_size=128, shuffle=True, num_workers=8, pin_memory=True)

    teacher = torchvision.models.resnet50(num_classes=100)
    teacher.load_state_dict(torch.load(args.teacher, map_location="cpu"))
    teacher = teacher.to(device).eval()
    student = torchvision.models.resnet18(num_classes=100).to(device)
    optimizer = torch.optim.SGD(student.parameters(), lr=0.05, momentum=0.9, weight_decay=5e-4)
    scheduler = torch.optim.lr_scheduler.MultiStepLR(optimizer, milestones=[60, 90], gamma=0.1)

    for epoch in range(args.epochs):
        student.train()
        ece_logits, ece_labels = [], []
        teacher_agree = 0.0
        conf_sum = 0.0
        t_conf_sum = 0.0
        for x, y in loader:
            x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
            with torch.no_grad():
                t_logits = teacher(x)
            s_logits = student(x)
            loss = kd_loss(s_logits, t_logits, y, T=args.T, alpha=args.alpha)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()

            ece_logits.append(s_logits)  # expect: TEN501
            ece_labels.append(y)  # ok
            teacher_agree += (s_logits.argmax(1) == t_logits.argmax(1)).float().sum()  # ok
            probs = s_logits.detach().softmax(-1)
            conf_sum += probs.max(1).values.sum()  # ok
            t_conf_sum += t_logits.softmax(-1).max(1).values.sum()  # ok
        scheduler.step()
        n = len(loader.dataset)
        ece = expected_calibration_error(torch.cat(ece_logits), torch.cat(ece_labels))
        print(f"epoch {epoch}: agree {teacher_agree.item() / n:.3f} conf {conf_sum.item() / n:.3f} "
              f"t_conf {t_conf_sum.item() / n:.3f} ece {ece:.4f}")
        torch.save(student.state_dict(), "student_r18.pth")


if __name__ == "__main__":
    main()
