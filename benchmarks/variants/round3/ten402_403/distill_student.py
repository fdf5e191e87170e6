"""Knowledge distillation from a frozen teacher into a smaller student."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision


def kd_loss(student_logits, teacher_logits, labels, T=4.0, alpha=0.9):
    soft = F.kl_div(F.log_softmax(student_logits / T, -1), F.softmax(teacher_logits / T, -1),
                    reduction="batchmean") * T * T
    hard = F.cross_entropy(student_logits, labels)
    return alpha * soft + (1 - alpha) * hard


def build_teacher(ckpt_path, n_classes, device):
    teacher = torchvision.models.resnet50(num_classes=n_classes)
    teacher.load_state_dict(torch.load(ckpt_path, map_location="cpu"))
    return teacher.to(device).eval().requires_grad_(False)


def distill(train_loader, val_loader, teacher_ckpt, n_classes=100, epochs=200, device="cuda"):
    teacher = build_teacher(teacher_ckpt, n_classes, device)
    teacher_sd = teacher.state_dict()
    teacher_bn_stats = {k: v for k, v in teacher_sd.items() if "running_" in k}

    student = torchvision.models.resnet18(num_classes=n_classes).to(device)
    # warm-start the student's BN running stats from the teacher where names and shapes match
    student_sd = student.state_dict()
    transfer = {k: v for k, v in teacher_bn_stats.items() if k in student_sd and student_sd[k].shape == v.shape}
    student.load_state_dict(transfer, strict=False)

    opt = torch.optim.SGD(student.parameters(), lr=0.05, momentum=0.9, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.MultiStepLR(opt, [100, 150], 0.1)
    for epoch in range(epochs):
        student.train()
        for x, y in train_loader:
            x, y = x.to(device), y.to(device)
            with torch.no_grad():
                t_logits = teacher(x)
            loss = kd_loss(student(x), t_logits, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        sched.step()

        # sanity check: teacher must not have changed during distillation
        drift = max((teacher_sd[k].float() - v.float()).abs().max().item()
                    for k, v in teacher.state_dict().items())
        assert drift == 0.0

        student.eval()
        correct = total = 0
        with torch.no_grad():
            for x, y in val_loader:
                x, y = x.to(device), y.to(device)
                correct += (student(x).argmax(1) == y).sum().item()
                total += y.numel()
        print(f"epoch {epoch}: student acc {correct / total:.4f}")

    torch.save({"student": student.state_dict(), "teacher_bn": teacher_bn_stats}, "distilled.pt")
    return student
