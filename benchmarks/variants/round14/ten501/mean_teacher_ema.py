"""Mean Teacher semi-supervised training with an EMA teacher and a consistency loss."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


def update_ema(student, teacher, decay):
    for ema_p, p in zip(teacher.parameters(), student.parameters()):
        ema_p.mul_(decay).add_(p, alpha=1 - decay)  # expect: TEN501


def update_ema_nograd(student, teacher, decay):
    with torch.no_grad():
        for ema_p, p in zip(teacher.parameters(), student.parameters()):
            ema_p.mul_(decay).add_(p, alpha=1 - decay)  # ok


def sigmoid_rampup(step, length=8):
    t = min(step, length) / length
    return float(torch.exp(torch.tensor(-5.0 * (1 - t) ** 2)))


def main(steps=10, bs=16, decay=0.9):
    torch.manual_seed(0)
    x_lab = torch.randn(32, 8)
    y_lab = (x_lab[:, 0] > 0).long()
    x_unl = torch.randn(256, 8)
    student = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Dropout(0.2), nn.Linear(32, 2))
    teacher = copy.deepcopy(student)
    slow_teacher = copy.deepcopy(student)
    for p in list(teacher.parameters()) + list(slow_teacher.parameters()):
        p.requires_grad_(False)
    opt = torch.optim.Adam(student.parameters(), lr=3e-3)
    cons_log, step_log, weights = [], [], []
    for step in range(steps):
        idx = torch.randint(0, 32, (bs,))
        xu = x_unl[torch.randint(0, 256, (bs,))]
        sup = F.cross_entropy(student(x_lab[idx]), y_lab[idx])
        with torch.no_grad():
            t_prob = F.softmax(teacher(xu + 0.1 * torch.randn_like(xu)), -1)
        consistency = F.mse_loss(F.softmax(student(xu + 0.1 * torch.randn_like(xu)), -1), t_prob)
        w = sigmoid_rampup(step)
        loss = sup + w * consistency
        opt.zero_grad()
        loss.backward()
        opt.step()
        update_ema(student, teacher, decay)
        update_ema_nograd(student, slow_teacher, 0.99)
        cons_log.append(consistency.item())  # ok
        weights.append(w)  # ok
        with torch.no_grad():
            step_log.append(loss)  # expect: TEN501
    print("consistency", [round(c, 4) for c in cons_log[::3]], "rampup", round(weights[-1], 3))
    with torch.no_grad():
        agree = (teacher(x_lab).argmax(-1) == slow_teacher(x_lab).argmax(-1)).float().mean().item()
    print(f"teacher / slow-teacher agreement {agree:.3f}")


if __name__ == "__main__":
    main()
