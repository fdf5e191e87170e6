import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def mlp(width):
    return nn.Sequential(nn.Linear(8, width), nn.ReLU(), nn.Linear(width, 5))


class Distiller:
    def __init__(self, teacher, student, T=2.0, alpha=0.7):
        self.teacher = teacher.eval().requires_grad_(False)
        self.student = student
        self.T, self.alpha = T, alpha
        self.opt = torch.optim.Adam(student.parameters(), lr=3e-3)
        self.teacher_bank = []
        self.student_bank = []
        self.kd_history = []
        self.kd_history_ok = []
        self.agree_hist = []

    def kd_loss(self, s_logits, t_logits):
        return F.kl_div(F.log_softmax(s_logits / self.T, -1), F.softmax(t_logits / self.T, -1),
                        reduction="batchmean") * self.T ** 2

    def step(self, x, y):
        t_logits = self.teacher(x)
        s_logits = self.student(x)
        kd = self.kd_loss(s_logits, t_logits)
        ce = F.cross_entropy(s_logits, y)
        loss = self.alpha * kd + (1 - self.alpha) * ce
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.teacher_bank.append(t_logits)  # ok
        self.student_bank.append(s_logits)  # expect: TEN501
        self.kd_history.append(kd)  # expect: TEN501
        self.kd_history_ok.append(kd.detach())  # ok
        self.agree_hist.append((s_logits.softmax(-1) * t_logits.softmax(-1)).sum(-1).mean())  # expect: TEN501
        return loss.item()


teacher, student = mlp(64), mlp(8)
d = Distiller(teacher, student)
for i in range(10):
    x = torch.randn(32, 8)
    y = torch.randint(0, 5, (32,))
    l = d.step(x, y)
agree = (torch.cat(d.teacher_bank).argmax(1) == torch.cat(d.student_bank).argmax(1)).float().mean()
print("loss", round(l, 4), "agreement", round(agree.item(), 3), "kd", round(torch.stack(d.kd_history_ok).mean().item(), 4))
