"""Teacher -> student distillation where the student starts from part of the teacher."""
import copy

import torch
from torch import nn
import torch.nn.functional as F


class MLP(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.embed = nn.Linear(10, 16)
        self.body = nn.Sequential(nn.ReLU(), nn.Linear(16, width), nn.ReLU())
        self.out = nn.Linear(width, 4)

    def forward(self, x):
        return self.out(self.body(self.embed(x)))


def data(seed=0, n=128):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 10, generator=g)
    return x, (x[:, :4] + 0.2 * x[:, 4:8]).argmax(1)


def train_teacher(seed=0, steps=40):
    torch.manual_seed(seed)
    x, y = data(seed)
    teacher = MLP(64)
    opt = torch.optim.Adam(teacher.parameters(), lr=1e-2)
    for _ in range(steps):
        opt.zero_grad()
        F.cross_entropy(teacher(x), y).backward()
        opt.step()
    return teacher.eval().requires_grad_(False)


def distill(teacher, seed=0, steps=40, T=3.0):
    x, y = data(seed + 1)
    student = MLP(16)
    embed_state = teacher.embed.state_dict()  # ok
    student.embed.load_state_dict(embed_state)
    teacher_params = list(teacher.parameters())  # ok
    teacher_ref = [p.clone() for p in teacher_params]  # ok
    opt = torch.optim.Adam(student.parameters(), lr=1e-2)
    for _ in range(steps):
        with torch.no_grad():
            t_logits = teacher(x)
        s_logits = student(x)
        loss = F.kl_div(F.log_softmax(s_logits / T, -1), F.softmax(t_logits / T, -1), reduction="batchmean")
        opt.zero_grad()
        (loss * T * T + 0.5 * F.cross_entropy(s_logits, y)).backward()
        opt.step()
    teacher_untouched = all(torch.equal(a, b) for a, b in zip(teacher_params, teacher_ref))
    return student, teacher_untouched


def ensemble_teacher(seeds=(0, 1)):
    members = [train_teacher(s, steps=20) for s in seeds]
    avg = copy.deepcopy(members[0])  # ok
    with torch.no_grad():
        for name, p in avg.named_parameters():
            p.copy_(torch.stack([dict(m.named_parameters())[name] for m in members]).mean(0))  # ok
    return avg


if __name__ == "__main__":
    teacher = train_teacher()
    student, untouched = distill(teacher)
    x, y = data(5)
    with torch.no_grad():
        print("student acc", (student(x).argmax(1) == y).float().mean().item(), "teacher frozen:", untouched)
    print(type(ensemble_teacher()).__name__)
