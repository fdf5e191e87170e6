"""Knowledge distillation with a frozen teacher; logits banks kept for a calibration plot."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
T = 4.0

teacher = nn.Sequential(nn.Linear(10, 64), nn.ReLU(), nn.Linear(64, 5))
for p in teacher.parameters():
    p.requires_grad = False
teacher.eval()
student = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 5))
opt = torch.optim.SGD(student.parameters(), lr=0.1)


def kd_loss_fn(s_logits, t_logits, y, alpha=0.7):
    soft = F.kl_div(F.log_softmax(s_logits / T, -1), F.softmax(t_logits / T, -1), reduction="batchmean") * T * T
    hard = F.cross_entropy(s_logits, y)
    return alpha * soft + (1 - alpha) * hard, soft


teacher_bank = []
student_bank = []
soft_targets_cache = {}
kd_total = torch.zeros(())
soft_total = 0.0
for epoch in range(2):
    for i in range(4):
        x = torch.randn(8, 10)
        y = torch.randint(0, 5, (8,))
        t_logits = teacher(x)
        s_logits = student(x)
        loss, soft = kd_loss_fn(s_logits, t_logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        teacher_bank.append(t_logits)  # ok
        soft_targets_cache[(epoch, i)] = F.softmax(t_logits / T, -1)  # ok
        student_bank.append(s_logits)  # expect: TEN501
        kd_total += loss.detach()  # ok
        soft_total += soft  # expect: TEN501
print(torch.cat(teacher_bank).shape, kd_total.item(), float(soft_total), len(student_bank))
