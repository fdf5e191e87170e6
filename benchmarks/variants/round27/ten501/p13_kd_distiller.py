"""Knowledge distillation: frozen teacher, student trained on CE + KL."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Distiller:
    def __init__(self, teacher, student, T=3.0, alpha=0.7):
        self.teacher = teacher.eval()
        for p in self.teacher.parameters():
            p.requires_grad_(False)
        self.student = student
        self.T = T
        self.alpha = alpha
        self.opt = torch.optim.SGD(student.parameters(), lr=0.1)
        self.teacher_cache = []
        self.student_cache = []
        self.kd_terms = []
        self.ce_terms = []
        self.kd_running = 0.0
        self.agreement = 0.0

    def step(self, x, y):
        t_logits = self.teacher(x)
        s_logits = self.student(x)
        kd = F.kl_div(F.log_softmax(s_logits / self.T, -1), F.softmax(t_logits / self.T, -1),
                      reduction="batchmean") * self.T ** 2
        ce = F.cross_entropy(s_logits, y)
        loss = self.alpha * kd + (1 - self.alpha) * ce
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.teacher_cache.append(t_logits)  # ok
        self.student_cache.append(s_logits)  # expect: TEN501
        self.kd_terms.append(kd)  # expect: TEN501
        self.ce_terms.append(ce.detach())  # ok
        self.kd_running = 0.9 * self.kd_running + 0.1 * kd  # expect: TEN501
        self.agreement += (s_logits.argmax(-1) == t_logits.argmax(-1)).float().mean()  # ok
        return loss.item()


teacher = nn.Sequential(nn.Linear(8, 64), nn.ReLU(), nn.Linear(64, 5))
student = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 5))
d = Distiller(teacher, student)
for it in range(8):
    x = torch.randn(16, 8)
    y = teacher(x).argmax(-1)
    l = d.step(x, y)
print("last loss", round(l, 4))
print("kd", [round(k.item(), 4) for k in d.kd_terms[-3:]])
agree = (torch.cat(d.student_cache).argmax(-1) == torch.cat(d.teacher_cache).argmax(-1)).float().mean()
print("agreement", round(agree.item(), 3))
