"""Self-distillation: the student learns from a frozen snapshot of its earlier self."""
import copy

import torch
from torch import nn
import torch.nn.functional as F


class ConvNet(nn.Module):
    def __init__(self, n_cls=4):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        )
        self.head = nn.Linear(16, n_cls)

    def forward(self, x):
        return self.head(self.features(x).flatten(1))


def kd_loss(student_logits, teacher_logits, labels, T=2.0, alpha=0.5):
    soft = F.kl_div(
        F.log_softmax(student_logits / T, -1), F.softmax(teacher_logits / T, -1), reduction="batchmean"
    ) * T * T
    return alpha * soft + (1 - alpha) * F.cross_entropy(student_logits, labels)


def fake_images(n=64, seed=0):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 4, (n,), generator=g)
    x = torch.randn(n, 1, 12, 12, generator=g) * 0.5
    for i in range(n):
        q = y[i].item()
        x[i, 0, (q // 2) * 6:(q // 2) * 6 + 6, (q % 2) * 6:(q % 2) * 6 + 6] += 1.0
    return x, y


def run_epochs(model, opt, data, epochs, teacher=None):
    x, y = data
    for _ in range(epochs):
        for idx in torch.randperm(len(x)).split(16):
            logits = model(x[idx])
            if teacher is None:
                loss = F.cross_entropy(logits, y[idx])
            else:
                with torch.no_grad():
                    t_logits = teacher(x[idx])
                loss = kd_loss(logits, t_logits, y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()


def progressive_self_distill(warmup=2, epochs=3, seed=0):
    torch.manual_seed(seed)
    data = fake_images(seed=seed)
    model = ConvNet()
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    run_epochs(model, opt, data, warmup)
    teacher = copy.copy(model)  # expect: TEN402
    teacher.eval()
    run_epochs(model, opt, data, epochs, teacher=teacher)
    return model, teacher


def born_again(generations=2, epochs=2, seed=0):
    torch.manual_seed(seed)
    data = fake_images(seed=seed)
    model = ConvNet()
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    run_epochs(model, opt, data, epochs)
    teachers = []
    for _ in range(generations):
        teacher = copy.deepcopy(model).eval()  # ok
        for p in teacher.parameters():
            p.requires_grad_(False)
        teachers.append(teacher)
        model = ConvNet()
        opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        run_epochs(model, opt, data, epochs, teacher=teacher)
    return model, teachers


if __name__ == "__main__":
    m, t = progressive_self_distill()
    x, _ = fake_images(8, seed=5)
    with torch.no_grad():
        print("teacher/student gap", (m(x) - t(x)).abs().max().item())
    born_again()
