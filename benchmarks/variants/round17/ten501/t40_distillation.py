"""Knowledge distillation with cached teacher and student logits."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

teacher = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 5))
student = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 5))
teacher.eval()
opt = torch.optim.Adam(student.parameters(), lr=1e-2)
T = 2.0

data = [torch.randn(10, 8) for _ in range(4)]
teacher_cache = {}
student_cache = {}
kd_log = []

for epoch in range(2):
    for i, x in enumerate(data):
        if i not in teacher_cache:
            with torch.no_grad():
                teacher_cache[i] = teacher(x)  # ok
        t_logits = teacher_cache[i]
        s_logits = student(x)
        kd = F.kl_div(F.log_softmax(s_logits / T, -1), F.softmax(t_logits / T, -1), reduction="batchmean") * T * T
        opt.zero_grad()
        kd.backward()
        opt.step()
        student_cache[i] = s_logits  # expect: TEN501
        kd_log.append(kd.detach().cpu().numpy())  # ok

print(len(teacher_cache), len(student_cache), float(kd_log[-1]))
