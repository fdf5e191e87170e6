"""Knowledge distillation from a frozen ResNet-50 teacher into a smaller student."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision


class Student(nn.Module):
    def __init__(self, num_classes=1000):
        super().__init__()
        ref = torchvision.models.resnet50()
        self.stem = nn.Sequential(ref.conv1, ref.bn1, ref.relu, ref.maxpool)
        self.body = nn.Sequential(
            nn.Conv2d(64, 128, 3, 2, 1), nn.BatchNorm2d(128), nn.ReLU(inplace=True),
            nn.Conv2d(128, 256, 3, 2, 1), nn.BatchNorm2d(256), nn.ReLU(inplace=True),
            nn.Conv2d(256, 512, 3, 2, 1), nn.BatchNorm2d(512), nn.ReLU(inplace=True),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )
        self.fc = nn.Linear(512, num_classes)

    def forward(self, x):
        return self.fc(self.body(self.stem(x)))


def kd_loss(student_logits, teacher_logits, targets, T=4.0, alpha=0.9):
    soft = F.kl_div(F.log_softmax(student_logits / T, 1), F.softmax(teacher_logits / T, 1), reduction="batchmean")
    return alpha * soft * T * T + (1 - alpha) * F.cross_entropy(student_logits, targets)


def build_teacher(ckpt, device):
    teacher = torchvision.models.resnet50()
    teacher.load_state_dict(torch.load(ckpt, map_location="cpu"))
    teacher.to(device).eval()
    for p in teacher.parameters():
        p.requires_grad_(False)
    return teacher


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--teacher", default="checkpoints/resnet50_teacher.pt")
    ap.add_argument("--data", default="/datasets/imagenet")
    ap.add_argument("--epochs", type=int, default=90)
    ap.add_argument("--lr", type=float, default=0.2)
    args = ap.parse_args()

    device = torch.device("cuda")
    teacher = build_teacher(args.teacher, device)
    teacher_state = teacher.state_dict()  # ok

    student = Student().to(device)
    stem = {k: v for k, v in teacher_state.items() if k.startswith(("conv1.", "bn1."))}  # ok
    student.stem[0].load_state_dict({k[len("conv1."):]: v for k, v in stem.items() if k.startswith("conv1.")})
    student.stem[1].load_state_dict({k[len("bn1."):]: v for k, v in stem.items() if k.startswith("bn1.")})
    init_student = {k: v.clone() for k, v in student.state_dict().items()}  # ok

    from torchvision import datasets, transforms
    tf = transforms.Compose([
        transforms.RandomResizedCrop(224), transforms.RandomHorizontalFlip(), transforms.ToTensor(),
        transforms.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225]),
    ])
    loader = torch.utils.data.DataLoader(datasets.ImageFolder(f"{args.data}/train", tf), batch_size=256,
                                         shuffle=True, num_workers=16, pin_memory=True, drop_last=True)
    optimizer = torch.optim.SGD(student.parameters(), lr=args.lr, momentum=0.9, weight_decay=1e-4, nesterov=True)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, args.epochs)

    anchor = None
    for epoch in range(args.epochs):
        student.train()
        for x, y in loader:
            x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
            with torch.no_grad():
                t_logits = teacher(x)
            loss = kd_loss(student(x), t_logits, y)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
        scheduler.step()

        cur = student.state_dict()
        drift = sum((cur[k].float() - init_student[k].float()).norm().item() for k in cur if cur[k].is_floating_point())
        stem_gap = (student.stem[0].weight.detach() - teacher_state["conv1.weight"]).norm().item()
        if anchor is not None:
            step_size = sum((cur[k].float() - anchor[k].float()).norm().item() for k in cur if cur[k].is_floating_point())
            print(f"epoch {epoch}: moved {step_size:.3f} since last epoch")
        anchor = {k: v.detach().clone() for k, v in student.state_dict().items()}  # ok
        print(f"epoch {epoch}: drift from init {drift:.3f}, stem gap to teacher {stem_gap:.4f}")

    torch.save(student.state_dict(), "student_kd.pt")


if __name__ == "__main__":
    main()
