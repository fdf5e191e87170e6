"""Distil a BERT-base teacher into a 6-layer student initialised from every other teacher layer."""
import copy
import re

import torch
import torch.nn.functional as F


def map_teacher_key(student_key, stride=2):
    m = re.match(r"(.*\.layer\.)(\d+)(\..*)", student_key)
    if m is None:
        return student_key
    return f"{m.group(1)}{int(m.group(2)) * stride}{m.group(3)}"


def init_student_from_teacher(student, teacher_sd):
    mapped = {k: teacher_sd[map_teacher_key(k)] for k in student.state_dict() if map_teacher_key(k) in teacher_sd}
    missing, unexpected = student.load_state_dict(mapped, strict=False)
    return missing


def kd_loss(s_logits, t_logits, labels, T=2.0, alpha=0.5):
    soft = F.kl_div(F.log_softmax(s_logits / T, -1), F.softmax(t_logits / T, -1), reduction="batchmean") * T * T
    return alpha * soft + (1 - alpha) * F.cross_entropy(s_logits, labels)


def main(teacher, student, train_loader, val_fn, epochs=3, lr=5e-5):
    if not torch.cuda.is_available():
        raise SystemExit("distillation needs a GPU")
    device = torch.device("cuda")
    teacher = teacher.to(device).eval().requires_grad_(False)
    student = student.to(device)

    teacher_sd = teacher.state_dict()  # ok
    missing = init_student_from_teacher(student, teacher_sd)
    print(f"student keys not initialised from teacher: {len(missing)}")
    student_init = copy.deepcopy(student.state_dict())  # ok

    opt = torch.optim.AdamW(student.parameters(), lr=lr, weight_decay=0.01)
    best, best_cpu = -1.0, None
    for epoch in range(epochs):
        student.train()
        for batch in train_loader:
            batch = {k: v.to(device) for k, v in batch.items()}
            labels = batch.pop("labels")
            with torch.no_grad():
                t_logits = teacher(**batch).logits
            loss = kd_loss(student(**batch).logits, t_logits, labels)
            opt.zero_grad()
            loss.backward()
            opt.step()

        score = val_fn(student)
        if score > best:
            best = score
            best_cpu = {k: v.cpu() for k, v in student.state_dict().items()}  # ok

    drift = {}
    for k, v in student.state_dict().items():
        tk = map_teacher_key(k)
        if tk in teacher_sd and v.dtype.is_floating_point:
            drift[k] = (v - teacher_sd[tk]).norm().item() / (teacher_sd[tk].norm().item() + 1e-12)
    moved = {k: (v - student_init[k]).norm().item() for k, v in student.state_dict().items() if v.dtype.is_floating_point}

    student.load_state_dict(best_cpu)
    torch.save(student.state_dict(), "student_best.pt")  # ok
    return best, drift, moved
