"""Self-distillation: the student is periodically frozen and used as its own teacher."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call


def kd_loss(student_logits, teacher_logits, T=4.0):
    return F.kl_div(F.log_softmax(student_logits / T, -1),
                    F.softmax(teacher_logits / T, -1), reduction="batchmean") * T * T


class PeriodicSelfDistiller:
    def __init__(self, student: nn.Module, refresh_every=500, alpha=0.5, lr=1e-3):
        self.student = student
        self.refresh_every = refresh_every
        self.alpha = alpha
        self.opt = torch.optim.Adam(student.parameters(), lr=lr)
        self.teacher_params = None
        self.step_count = 0

    def refresh_teacher(self):
        self.teacher_params = {n: p for n, p in self.student.named_parameters()}  # expect: TEN402

    @torch.no_grad()
    def teacher_logits(self, x):
        return functional_call(self.student, self.teacher_params, (x,))

    def step(self, x, y):
        if self.step_count % self.refresh_every == 0:
            self.refresh_teacher()
        logits = self.student(x)
        loss = F.cross_entropy(logits, y)
        if self.step_count >= self.refresh_every:
            loss = (1 - self.alpha) * loss + self.alpha * kd_loss(logits, self.teacher_logits(x))
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.step_count += 1
        return loss.item()


class BornAgain:
    """Generations of students, each taught by a frozen copy of the previous one."""

    def __init__(self, make_model, generations=3):
        self.make_model = make_model
        self.generations = generations

    def run(self, loader, epochs=5):
        teacher = None
        student = self.make_model()
        for g in range(self.generations):
            opt = torch.optim.SGD(student.parameters(), lr=0.05, momentum=0.9)
            for _ in range(epochs):
                for x, y in loader:
                    logits = student(x)
                    loss = F.cross_entropy(logits, y)
                    if teacher is not None:
                        with torch.no_grad():
                            t = teacher(x)
                        loss = loss + kd_loss(logits, t)
                    opt.zero_grad()
                    loss.backward()
                    opt.step()
            teacher = copy.deepcopy(student).eval()  # ok
            for p in teacher.parameters():
                p.requires_grad_(False)
            fresh = self.make_model()
            fresh.load_state_dict(student.state_dict())  # ok
            student = fresh
        return student, teacher
