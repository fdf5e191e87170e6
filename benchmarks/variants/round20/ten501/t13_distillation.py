"""Knowledge distillation with a cached teacher and a KD loss log."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def kd_loss(student_logits, teacher_logits, T):
    p_t = F.softmax(teacher_logits / T, dim=1)
    return F.kl_div(F.log_softmax(student_logits / T, dim=1), p_t, reduction="batchmean") * T * T


class Distiller:
    def __init__(self, teacher, student, optimizer, T=4.0, alpha=0.7):
        self.teacher = teacher
        self.student = student
        self.opt = optimizer
        self.T = T
        self.alpha = alpha
        self.teacher_cache = {}
        self.teacher_cache_ok = {}
        self.kd_log = []
        self.temp_log = []
        self.agreement = []

    def teacher_logits(self, idx, x):
        if idx not in self.teacher_cache:
            self.teacher_cache[idx] = self.teacher(x)  # expect: TEN501
        return self.teacher_cache[idx]

    def teacher_logits_ok(self, idx, x):
        if idx not in self.teacher_cache_ok:
            with torch.no_grad():
                self.teacher_cache_ok[idx] = self.teacher(x)  # ok
        return self.teacher_cache_ok[idx]

    def step(self, idx, x, y):
        t_logits = self.teacher_logits(idx, x)
        t_ok = self.teacher_logits_ok(idx, x)
        s_logits = self.student(x)
        kd = kd_loss(s_logits, t_ok, self.T)
        ce = F.cross_entropy(s_logits, y)
        loss = self.alpha * kd + (1 - self.alpha) * ce
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.kd_log.append(kd)  # expect: TEN501
        self.temp_log.append(self.T)  # ok
        self.agreement.append((s_logits.argmax(1) == t_logits.argmax(1)).float().mean())  # ok
        self.T = max(1.0, self.T * 0.97)
        return loss


teacher = nn.Sequential(nn.Linear(10, 64), nn.ReLU(), nn.Linear(64, 5))
student = nn.Sequential(nn.Linear(10, 8), nn.ReLU(), nn.Linear(8, 5))
d = Distiller(teacher, student, torch.optim.Adam(student.parameters(), lr=5e-3))
data = [(torch.randn(16, 10), torch.randint(0, 5, (16,))) for _ in range(5)]
for epoch in range(3):
    for idx, (x, y) in enumerate(data):
        d.step(idx, x, y)

print("cache", len(d.teacher_cache), "kd", round(float(d.kd_log[-1]), 5), "T", round(d.temp_log[-1], 3))
print("agree", round(float(torch.stack(d.agreement).mean()), 4),
      round(float((d.teacher_cache[0] - d.teacher_cache_ok[0]).abs().max()), 6))
