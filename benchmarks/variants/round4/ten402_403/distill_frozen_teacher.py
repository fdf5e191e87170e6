"""Knowledge distillation from a frozen teacher into a student initialised from it."""
import io

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def make_net(width):
    return nn.Sequential(nn.Linear(16, width), nn.ReLU(), nn.Linear(width, width), nn.ReLU(),
                         nn.Linear(width, 5))


def kd_loss(student_logits, teacher_logits, labels, T=4.0, alpha=0.7):
    soft = F.kl_div(F.log_softmax(student_logits / T, -1), F.softmax(teacher_logits / T, -1),
                    reduction="batchmean") * T * T
    return alpha * soft + (1 - alpha) * F.cross_entropy(student_logits, labels)


def export_numpy(model):
    arrays = {k: v.cpu().numpy() for k, v in model.state_dict().items()}  # ok: written out at once
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    return buf.getvalue()


def distill(teacher, batches, epochs=2):
    teacher.eval().requires_grad_(False)
    teacher_state = teacher.state_dict()  # ok: teacher is never updated
    student = make_net(32)
    student.load_state_dict(teacher_state)  # same architecture: warm start, copies values
    start = {n: p.detach() for n, p in student.named_parameters()}  # ok: used before any step
    start_norm = sum(t.norm() ** 2 for t in start.values()).sqrt().item()
    opt = torch.optim.AdamW(student.parameters(), lr=1e-3)
    for _ in range(epochs):
        for x, y in batches:
            with torch.no_grad():
                t_logits = teacher(x)
            loss = kd_loss(student(x), t_logits, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
    # how far has the student moved away from the teacher's weights?
    drift = {k: (v - teacher_state[k]).norm().item() for k, v in student.state_dict().items()}
    blob = export_numpy(student)
    ckpt = io.BytesIO()
    torch.save(student.state_dict(), ckpt)  # ok
    return student, drift, start_norm, len(blob)


if __name__ == "__main__":
    torch.manual_seed(0)
    teacher = make_net(32)
    batches = [(torch.randn(8, 16), torch.randint(0, 5, (8,))) for _ in range(4)]
    _, drift, n0, size = distill(teacher, batches)
    print(round(n0, 3), size, {k: round(v, 4) for k, v in list(drift.items())[:2]})
