"""Knowledge distillation: ResNet-50 teacher -> MobileNetV3 student."""
import json

import torch
import torch.nn.functional as F
import torchvision


def kd_loss(student_logits, teacher_logits, T):
    return F.kl_div(F.log_softmax(student_logits / T, dim=-1),
                    F.softmax(teacher_logits / T, dim=-1),
                    reduction="batchmean") * (T * T)


def distill_epoch(student, teacher, loader, optimizer, device, T=4.0, alpha=0.9, step_log=None):
    student.train()
    teacher.eval()
    ce_total = 0.0
    teacher_conf = []
    n_batches = 0
    for x, y in loader:
        x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
        with torch.no_grad():
            t_logits = teacher(x)
            teacher_conf.append(t_logits.softmax(-1).max(-1).values)  # ok

        s_logits = student(x)
        kd = kd_loss(s_logits, t_logits, T)
        ce = F.cross_entropy(s_logits, y)
        loss = alpha * kd + (1.0 - alpha) * ce

        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()

        ce_total += ce.detach().cpu()  # ok
        if step_log is not None:
            step_log.append({"kd": kd, "ce": ce.item()})  # expect: TEN501
        n_batches += 1
    mean_conf = torch.cat(teacher_conf).mean().item()
    return float(ce_total) / n_batches, mean_conf


@torch.no_grad()
def top1(model, loader, device):
    model.eval()
    hits, total = 0, 0
    for x, y in loader:
        pred = model(x.to(device)).argmax(-1).cpu()
        hits += (pred == y).sum().item()  # ok
        total += y.numel()
    return hits / total


def main(train_loader, val_loader, epochs=100, device="cuda"):
    teacher = torchvision.models.resnet50(weights="IMAGENET1K_V2").to(device).eval()
    student = torchvision.models.mobilenet_v3_large(num_classes=1000).to(device)
    optimizer = torch.optim.SGD(student.parameters(), lr=0.4, momentum=0.9, weight_decay=4e-5, nesterov=True)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, epochs)
    step_log = []
    for epoch in range(epochs):
        ce, conf = distill_epoch(student, teacher, train_loader, optimizer, device, step_log=step_log)
        sched.step()
        acc = top1(student, val_loader, device)
        print(f"epoch {epoch}: ce {ce:.3f} teacher-conf {conf:.3f} student top1 {acc:.4f}")
    with open("kd_steps.json", "w") as fh:
        json.dump([{"kd": float(r["kd"]), "ce": r["ce"]} for r in step_log], fh)
