"""Born-again self-distillation: freeze a copy of the student as teacher."""
import copy

import torch
from torch import nn
import torch.nn.functional as F


def kd_loss(student_logits, teacher_logits, labels, T=2.0, alpha=0.5):
    soft = F.kl_div(F.log_softmax(student_logits / T, -1), F.softmax(teacher_logits / T, -1), reduction="batchmean")
    return alpha * soft * T * T + (1 - alpha) * F.cross_entropy(student_logits, labels)


def freeze(module):
    for p in module.parameters():
        p.requires_grad_(False)
    return module.eval()


def pretrain(model, x, y, steps=15):
    opt = torch.optim.Adam(model.parameters(), lr=0.02)
    for _ in range(steps):
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()


def born_again(student, x, y, make_teacher, steps=15):
    teacher = make_teacher(student)
    for p in student.parameters():
        p.requires_grad_(True)
    student.train()
    opt = torch.optim.Adam(student.parameters(), lr=0.02)
    gap = []
    for _ in range(steps):
        with torch.no_grad():
            t_logits = teacher(x)
        s_logits = student(x)
        loss = kd_loss(s_logits, t_logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        gap.append((s_logits.detach() - t_logits).abs().mean().item())
    return gap


def shallow_teacher(student):
    return freeze(copy.copy(student))  # expect: TEN402


def deep_teacher(student):
    return freeze(copy.deepcopy(student))  # ok


def rebuilt_teacher(student):
    teacher = nn.Sequential(nn.Linear(10, 24), nn.ReLU(), nn.Linear(24, 4))
    teacher.load_state_dict(student.state_dict())  # ok
    return freeze(teacher)


if __name__ == "__main__":
    for factory in (shallow_teacher, deep_teacher, rebuilt_teacher):
        torch.manual_seed(0)
        x, y = torch.randn(96, 10), torch.randint(0, 4, (96,))
        student = nn.Sequential(nn.Linear(10, 24), nn.ReLU(), nn.Linear(24, 4))
        pretrain(student, x, y)
        gap = born_again(student, x, y, factory)
        trainable = sum(p.requires_grad for p in student.parameters())
        print(f"{factory.__name__}: student/teacher gap first={gap[0]:.4f} last={gap[-1]:.4f}, trainable={trainable}")
