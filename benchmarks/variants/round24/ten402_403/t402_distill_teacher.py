"""Self-distillation: a frozen teacher snapshot of the student is taken at warm-up end."""
import copy

import torch
import torch.nn as nn
from torch.func import functional_call

torch.manual_seed(0)


class SelfDistiller:
    def __init__(self, student, tau=2.0):
        self.student = student
        self.tau = tau
        self.teacher_params = None
        self.teacher_module = None

    def freeze_teacher(self):
        self.teacher_params = {n: p for n, p in self.student.named_parameters()}  # expect: TEN402

    def freeze_teacher_module(self):
        self.teacher_module = copy.deepcopy(self.student)  # ok
        self.teacher_module.requires_grad_(False)

    def kd_loss(self, x, use_module):
        with torch.no_grad():
            if use_module:
                t = self.teacher_module(x)
            else:
                t = functional_call(self.student, {k: v.detach() for k, v in self.teacher_params.items()}, (x,))
        s = self.student(x)
        return nn.functional.kl_div(
            nn.functional.log_softmax(s / self.tau, -1),
            nn.functional.softmax(t / self.tau, -1),
            reduction="batchmean",
        )


def run(use_module):
    torch.manual_seed(4)
    student = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 4))
    d = SelfDistiller(student)
    opt = torch.optim.SGD(student.parameters(), lr=0.2)
    x = torch.randn(48, 6)
    y = torch.randint(0, 4, (48,))
    for step in range(30):
        if step == 10:
            d.freeze_teacher_module() if use_module else d.freeze_teacher()
        loss = nn.functional.cross_entropy(student(x), y)
        if step >= 10:
            kd = d.kd_loss(x, use_module)
            loss = loss + 2.0 * kd
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item(), d.kd_loss(x, use_module).item()


if __name__ == "__main__":
    for use_module in (False, True):
        loss, kd = run(use_module)
        print(f"use_module={use_module} loss {loss:.6f} kd {kd:.6f}")
