"""Knowledge distillation with a teacher-logit cache (computed once per batch index)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class Distiller:
    def __init__(self, teacher, student, T=4.0, alpha=0.7):
        self.teacher = teacher
        self.student = student
        self.T = T
        self.alpha = alpha
        self.teacher_cache = {}
        self.kd_history = []
        self.ce_history = []

    def teacher_logits(self, idx, x):
        if idx not in self.teacher_cache:
            logits = self.teacher(x)
            self.teacher_cache[idx] = logits  # expect: TEN501
        return self.teacher_cache[idx].detach()

    def step(self, idx, x, y, opt):
        t_logits = self.teacher_logits(idx, x)
        s_logits = self.student(x)
        kd = F.kl_div(F.log_softmax(s_logits / self.T, dim=1), F.softmax(t_logits / self.T, dim=1),
                      reduction="batchmean") * self.T ** 2
        ce = F.cross_entropy(s_logits, y)
        loss = self.alpha * kd + (1 - self.alpha) * ce
        opt.zero_grad()
        loss.backward()
        opt.step()
        self.kd_history.append(kd)  # expect: TEN501
        self.ce_history.append(ce.item())  # ok
        return loss


class CachedTeacher:
    """Correct variant: teacher frozen and evaluated under no_grad."""

    def __init__(self, teacher):
        self.teacher = teacher.eval().requires_grad_(False)
        self.cache = {}

    @torch.no_grad()
    def __call__(self, idx, x):
        if idx not in self.cache:
            self.cache[idx] = self.teacher(x)  # ok
        return self.cache[idx]


def batches(x, y, bs=32):
    return [(i, x[i:i + bs], y[i:i + bs]) for i in range(0, len(x), bs)]


x = torch.randn(192, 12)
y = (x[:, 0] + x[:, 1] * x[:, 2] > 0).long()
teacher = nn.Sequential(nn.Linear(12, 64), nn.ReLU(), nn.Linear(64, 2))
t_opt = torch.optim.Adam(teacher.parameters(), lr=1e-2)
for _ in range(30):
    t_opt.zero_grad()
    F.cross_entropy(teacher(x), y).backward()
    t_opt.step()

student = nn.Sequential(nn.Linear(12, 16), nn.ReLU(), nn.Linear(16, 2))
opt = torch.optim.Adam(student.parameters(), lr=1e-2)
distiller = Distiller(teacher, student)
step_losses = []
for epoch in range(3):
    for idx, xb, yb in batches(x, y):
        loss = distiller.step(idx, xb, yb, opt)
        step_losses.append(loss.item())

student2 = nn.Sequential(nn.Linear(12, 16), nn.ReLU(), nn.Linear(16, 2))
opt2 = torch.optim.Adam(student2.parameters(), lr=1e-2)
frozen = CachedTeacher(teacher)
soft_targets = {}
for epoch in range(2):
    for idx, xb, yb in batches(x, y):
        t = frozen(idx, xb)
        soft_targets[idx] = F.softmax(t / 4.0, dim=1)  # ok
        loss = F.kl_div(F.log_softmax(student2(xb) / 4.0, dim=1), soft_targets[idx], reduction="batchmean")
        opt2.zero_grad()
        loss.backward()
        opt2.step()

acc = (student(x).argmax(1) == y).float().mean().item()
acc2 = (student2(x).argmax(1) == y).float().mean().item()
print("student acc:", round(acc, 3), "student2 acc:", round(acc2, 3))
print("kd trend:", round(distiller.kd_history[0].item(), 4), "->", round(distiller.kd_history[-1].item(), 4),
      "ce mean:", round(sum(distiller.ce_history) / len(distiller.ce_history), 4))
print("cached teacher entries:", len(distiller.teacher_cache), len(frozen.cache), "soft targets:", len(soft_targets))
