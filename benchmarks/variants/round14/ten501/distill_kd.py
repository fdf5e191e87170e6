"""Knowledge distillation from a frozen teacher into a smaller student (Hinton KD)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def teacher_net():
    return nn.Sequential(nn.Linear(20, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 5))


def student_net():
    return nn.Sequential(nn.Linear(20, 16), nn.ReLU(), nn.Linear(16, 5))


def kd_loss(s_logits, t_logits, T):
    return F.kl_div(F.log_softmax(s_logits / T, -1), F.softmax(t_logits / T, -1),
                    reduction="batchmean") * T * T


def pretrain_teacher(teacher, x, y, steps=20):
    opt = torch.optim.Adam(teacher.parameters(), lr=1e-2)
    for _ in range(steps):
        loss = F.cross_entropy(teacher(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()


def distill(teacher, student, x, y, epochs=3, bs=32, T=4.0, alpha=0.7):
    teacher.eval()
    teacher.requires_grad_(False)
    opt = torch.optim.Adam(student.parameters(), lr=5e-3)
    soft_bank = torch.zeros(x.size(0), 5)
    teacher_logits_cache, kd_terms, student_conf_hist, temps = [], [], [], []
    for epoch in range(epochs):
        for i in range(0, x.size(0), bs):
            xb, yb = x[i:i + bs], y[i:i + bs]
            t_logits = teacher(xb)
            s_logits = student(xb)
            kd = kd_loss(s_logits, t_logits, T)
            loss = alpha * kd + (1 - alpha) * F.cross_entropy(s_logits, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            teacher_logits_cache.append(t_logits)  # ok
            soft_bank[i:i + bs] = F.softmax(t_logits / T, dim=-1)  # ok
            kd_terms.append(kd)  # expect: TEN501
            student_conf_hist.append(F.softmax(s_logits, -1).max(-1).values.mean())  # expect: TEN501
        temps.append(T)  # ok
        T = max(1.0, T * 0.75)
        print(f"epoch {epoch}: kd={kd_terms[-1].item():.4f} conf={student_conf_hist[-1].item():.3f}")
    return soft_bank


def main():
    torch.manual_seed(0)
    x = torch.randn(128, 20)
    y = (x[:, :5] + 0.5 * x[:, 5:10]).argmax(1)
    teacher, student = teacher_net(), student_net()
    pretrain_teacher(teacher, x, y)
    bank = distill(teacher, student, x, y)
    agree = (student(x).argmax(1) == bank.argmax(1)).float().mean().item()
    print(f"student/teacher agreement {agree:.3f}")


if __name__ == "__main__":
    main()
