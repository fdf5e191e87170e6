"""Knowledge distillation from a frozen teacher into a small student."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

teacher = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 10))
student = nn.Sequential(nn.Linear(20, 16), nn.ReLU(), nn.Linear(16, 10))
for p in teacher.parameters():
    p.requires_grad_(False)
teacher.eval()
opt = torch.optim.Adam(student.parameters(), lr=1e-2)
T, alpha = 4.0, 0.7

teacher_bank, student_bank = [], []
kd_total = torch.zeros(())
kd_total_ok = torch.zeros(())
ce_sum = 0.0
for step in range(9):
    x = torch.randn(32, 20)
    y = torch.randint(0, 10, (32,))
    t_logits = teacher(x)
    s_logits = student(x)
    kd_loss = F.kl_div(F.log_softmax(s_logits / T, -1), F.softmax(t_logits / T, -1), reduction="batchmean") * T * T
    ce = F.cross_entropy(s_logits, y)
    loss = alpha * kd_loss + (1 - alpha) * ce
    opt.zero_grad()
    loss.backward()
    opt.step()
    teacher_bank.append(t_logits)  # ok
    student_bank.append(s_logits)  # expect: TEN501
    kd_total = kd_total + kd_loss  # expect: TEN501
    kd_total_ok += kd_loss.detach()  # ok
    ce_sum += ce.item()  # ok
agree = (torch.cat(teacher_bank).argmax(1) == torch.cat(student_bank).argmax(1)).float().mean()
print(f"kd {kd_total.item() / 9:.4f} {kd_total_ok.item() / 9:.4f} ce {ce_sum / 9:.4f} agree {agree.item():.3f}")
