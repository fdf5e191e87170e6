"""Response-based knowledge distillation (Hinton et al.) with a few training diagnostics."""
import math

import torch
import torch.nn.functional as F


def kd_loss(student_logits, teacher_logits, targets, T=4.0, alpha=0.9):
    soft = F.kl_div(
        F.log_softmax(student_logits / T, dim=-1),
        F.softmax(teacher_logits / T, dim=-1),
        reduction="batchmean",
    ) * (T * T)
    hard = F.cross_entropy(student_logits, targets)
    return alpha * soft + (1 - alpha) * hard


class Distiller:
    def __init__(self, teacher, student, T=4.0, alpha=0.9, lr=0.05, device="cuda"):
        self.device = device
        self.teacher = teacher.to(device).eval()
        self.teacher.requires_grad_(False)
        self.teacher_sd = self.teacher.state_dict()  # ok
        self.student = student.to(device)
        self._init_student = dict(self.student.state_dict())  # expect: TEN402
        self.T, self.alpha = T, alpha
        self.opt = torch.optim.SGD(self.student.parameters(), lr=lr, momentum=0.9, weight_decay=5e-4)

    def weight_drift(self):
        """Relative L2 distance of the student from its initialization."""
        num, den = 0.0, 0.0
        for name, p in self.student.named_parameters():
            ref = self._init_student[name]
            num += (p.detach() - ref).pow(2).sum().item()
            den += ref.pow(2).sum().item()
        return math.sqrt(num / max(den, 1e-12))

    def train_epoch(self, loader):
        self.student.train()
        total = 0.0
        for x, y in loader:
            x, y = x.to(self.device), y.to(self.device)
            with torch.no_grad():
                t_logits = self.teacher(x)
            loss = kd_loss(self.student(x), t_logits, y, self.T, self.alpha)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            total += loss.item()
        return total / len(loader)

    def fit(self, loader, epochs, log=print):
        sched = torch.optim.lr_scheduler.CosineAnnealingLR(self.opt, epochs)
        for epoch in range(epochs):
            loss = self.train_epoch(loader)
            sched.step()
            log(f"epoch {epoch}: kd_loss={loss:.4f} drift={self.weight_drift():.4f}")

    def export(self, path):
        torch.save({"student": self.student.state_dict(), "teacher": self.teacher_sd,
                    "T": self.T, "alpha": self.alpha}, path)
