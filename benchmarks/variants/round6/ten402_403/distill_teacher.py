"""Knowledge distillation from a frozen teacher (Hinton et al. 2015).

Look-alike negatives: the teacher is frozen, so keeping its state dict
around is harmless, and the student's state dict is only read before training.
"""
import torch
from torch import nn
import torch.nn.functional as F


def freeze(module):
    module.eval()
    for p in module.parameters():
        p.requires_grad_(False)
    return module


def kd_loss(student_logits, teacher_logits, labels, T=4.0, alpha=0.9):
    soft = F.kl_div(F.log_softmax(student_logits / T, dim=-1),
                    F.softmax(teacher_logits / T, dim=-1), reduction="batchmean") * T * T
    hard = F.cross_entropy(student_logits, labels)
    return alpha * soft + (1 - alpha) * hard


def distill(teacher, student, data, steps=30, lr=0.05):
    teacher = freeze(teacher)
    teacher_reference = teacher.state_dict()  # ok
    init_student = student.state_dict()  # ok
    n_params = sum(v.numel() for v in init_student.values())
    x, y = data
    opt = torch.optim.SGD(student.parameters(), lr=lr)
    for _ in range(steps):
        with torch.no_grad():
            t_logits = teacher(x)
        opt.zero_grad()
        kd_loss(student(x), t_logits, y).backward()
        opt.step()
    # sanity check: distillation must never touch the teacher
    for k, v in teacher.state_dict().items():
        assert v is teacher_reference[k] or torch.equal(v, teacher_reference[k])
    return n_params


if __name__ == "__main__":
    torch.manual_seed(0)
    teacher = nn.Sequential(nn.Linear(10, 64), nn.ReLU(), nn.Linear(64, 5))
    student = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 5))
    warm = nn.Sequential(nn.Linear(10, 64), nn.ReLU(), nn.Linear(64, 5))
    warm.load_state_dict(teacher.state_dict())  # ok
    data = (torch.randn(40, 10), torch.randint(0, 5, (40,)))
    print("student params:", distill(teacher, student, data))
