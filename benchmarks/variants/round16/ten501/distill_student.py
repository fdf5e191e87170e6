"""Knowledge distillation from a (briefly pre-trained) frozen teacher."""
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

X = torch.randn(512, 16)
Y = ((X[:, :4].sum(1) > 0).long() + (X[:, 4] > 0.5).long())
BATCHES = [(X[i:i + 64], Y[i:i + 64]) for i in range(0, 512, 64)]


def mlp(width):
    return nn.Sequential(nn.Linear(16, width), nn.ReLU(), nn.Linear(width, 3))


def pretrain_teacher(teacher, epochs=2):
    opt = torch.optim.Adam(teacher.parameters(), lr=1e-2)
    teacher_losses = []
    for _ in range(epochs):
        for xb, yb in BATCHES:
            loss = F.cross_entropy(teacher(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            teacher_losses.append(loss.detach())  # ok
    return torch.stack(teacher_losses)


class Distiller:
    def __init__(self, student, teacher, temperature=4.0, alpha=0.7, lr=5e-3):
        self.student = student
        self.teacher = teacher.eval()
        for p in self.teacher.parameters():
            p.requires_grad_(False)
        self.T = temperature
        self.alpha = alpha
        self.opt = torch.optim.Adam(student.parameters(), lr=lr)
        self.kd_history = []
        self._teacher_cache = {}

    def teacher_logits(self, key, x):
        if key not in self._teacher_cache:
            self._teacher_cache[key] = self.teacher(x)  # ok
        return self._teacher_cache[key]

    def step(self, key, x, y):
        t_logits = self.teacher_logits(key, x)
        s_logits = self.student(x)
        kd = F.kl_div(F.log_softmax(s_logits / self.T, dim=-1),
                      F.softmax(t_logits / self.T, dim=-1),
                      reduction="batchmean") * self.T ** 2
        ce = F.cross_entropy(s_logits, y)
        loss = self.alpha * kd + (1.0 - self.alpha) * ce  # ok
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.kd_history.append(kd)  # expect: TEN501
        return {"loss": loss.item(), "ce": ce.item(), "agree": (s_logits.argmax(1) == t_logits.argmax(1)).float().mean().item()}


def main():
    teacher, student = mlp(128), mlp(16)
    curve = pretrain_teacher(teacher)
    print("teacher loss %.3f -> %.3f" % (curve[0].item(), curve[-1].item()))
    distiller = Distiller(student, teacher)
    for epoch in range(3):
        epoch_stats = defaultdict(list)
        for key, (xb, yb) in enumerate(BATCHES):
            stats = distiller.step(key, xb, yb)
            for k, v in stats.items():
                epoch_stats[k].append(v)  # ok
        print(epoch, {k: round(sum(v) / len(v), 4) for k, v in epoch_stats.items()})


if __name__ == "__main__":
    main()
