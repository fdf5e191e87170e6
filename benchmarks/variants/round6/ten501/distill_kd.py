"""Knowledge distillation (Hinton KD + FitNets hint) from a frozen teacher."""
from collections import Counter

import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvNet(nn.Module):
    def __init__(self, width, num_classes=5):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU(),
            nn.Conv2d(width, width, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        )
        self.fc = nn.Linear(width, num_classes)

    def forward(self, x, return_feats=False):
        f = self.features(x).flatten(1)
        logits = self.fc(f)
        return (logits, f) if return_feats else logits


def kd_loss_fn(student_logits, teacher_logits, T=4.0):
    p_s = F.log_softmax(student_logits / T, dim=1)
    p_t = F.softmax(teacher_logits / T, dim=1)
    return F.kl_div(p_s, p_t, reduction="batchmean") * (T * T)


def train_epoch(student, teacher, regressor, loader, optimizer, stats, teacher_cache, alpha=0.9, beta=1.0):
    student.train()
    teacher.eval()
    for x, y in loader:
        with torch.no_grad():
            t_logits, t_feats = teacher(x, return_feats=True)
        s_logits, s_feats = student(x, return_feats=True)
        loss_kd = kd_loss_fn(s_logits, t_logits)
        loss_ce = F.cross_entropy(s_logits, y)
        loss_hint = F.mse_loss(regressor(s_feats), t_feats)
        loss = alpha * loss_kd + (1 - alpha) * loss_ce + beta * loss_hint

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

        stats["kd"] += loss_kd  # expect: TEN501
        stats["ce"] += loss_ce.item()  # ok
        stats["agree"] += int((s_logits.argmax(1) == t_logits.argmax(1)).sum())
        stats["n"] += 1
        teacher_cache.append(t_logits)  # ok


def pretrain_teacher(teacher, loader, epochs=2):
    opt = torch.optim.SGD(teacher.parameters(), lr=0.05, momentum=0.9)
    for _ in range(epochs):
        for x, y in loader:
            loss = F.cross_entropy(teacher(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
    for p in teacher.parameters():
        p.requires_grad_(False)


def main():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    loader = [(torch.randn(8, 3, 8, 8, generator=g), torch.randint(0, 5, (8,), generator=g)) for _ in range(6)]
    teacher = ConvNet(width=32)
    student = ConvNet(width=8)
    regressor = nn.Linear(8, 32)
    pretrain_teacher(teacher, loader)
    optimizer = torch.optim.Adam(list(student.parameters()) + list(regressor.parameters()), lr=1e-3)
    teacher_cache = []
    for epoch in range(3):
        stats = Counter()
        train_epoch(student, teacher, regressor, loader, optimizer, stats, teacher_cache)
        print(f"epoch {epoch}: kd {float(stats['kd']) / stats['n']:.4f} ce {stats['ce'] / stats['n']:.4f} "
              f"agree {stats['agree']}/{stats['n'] * 8} cached {len(teacher_cache)}")


if __name__ == "__main__":
    main()
