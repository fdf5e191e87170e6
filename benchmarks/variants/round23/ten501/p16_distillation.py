"""Knowledge distillation: frozen teacher, trainable student."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
teacher = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 5)).eval()
student = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 5))
opt = torch.optim.SGD(student.parameters(), lr=0.1)
T = 2.0
teacher_logits_cache, kd_terms = [], []
soft_targets = torch.empty(0, 5)
student_hist = torch.empty(0, 5)
for it in range(4):
    x = torch.randn(4, 8)
    with torch.no_grad():
        t_logits = teacher(x)
        teacher_logits_cache.append(t_logits)  # ok
    s_logits = student(x)
    kd = F.kl_div(F.log_softmax(s_logits / T, -1), F.softmax(t_logits / T, -1), reduction="batchmean") * T * T
    opt.zero_grad()
    kd.backward()
    opt.step()
    kd_terms.append(kd)  # expect: TEN501
    soft_targets = torch.cat((soft_targets, F.softmax(t_logits / T, -1)))  # ok
    student_hist = torch.cat((student_hist, s_logits))  # expect: TEN501
print(len(teacher_logits_cache), len(kd_terms), soft_targets.shape, student_hist.shape)
