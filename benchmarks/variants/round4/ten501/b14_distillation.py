import torch
import torch.nn as nn
import torch.nn.functional as F


def make_mlp(width, depth, d_in=128, n_cls=10):
    layers, d = [], d_in
    for _ in range(depth):
        layers += [nn.Linear(d, width), nn.ReLU()]
        d = width
    layers.append(nn.Linear(d, n_cls))
    return nn.Sequential(*layers)


def kd_loss_fn(student_logits, teacher_logits, T):
    return F.kl_div(
        F.log_softmax(student_logits / T, dim=-1),
        F.softmax(teacher_logits / T, dim=-1),
        reduction="batchmean",
    ) * (T * T)


def distill(teacher, student, loader, epochs=5, T=4.0, alpha=0.7, lr=1e-3):
    teacher.eval()
    opt = torch.optim.Adam(student.parameters(), lr=lr)
    teacher_bank = []
    for epoch in range(epochs):
        student.train()
        kd_sum, ce_sum, conf_sum, n = 0.0, 0.0, 0.0, 0
        for x, y in loader:
            with torch.no_grad():
                t_logits = teacher(x)
                if epoch == 0:
                    teacher_bank.append(t_logits)  # ok
            s_logits = student(x)
            kd = kd_loss_fn(s_logits, t_logits, T)
            ce = F.cross_entropy(s_logits, y)
            loss = alpha * kd + (1 - alpha) * ce

            opt.zero_grad()
            loss.backward()
            opt.step()

            kd_sum += kd  # expect: TEN501
            ce_sum += ce.item()  # ok
            conf_sum += F.softmax(s_logits, dim=-1).max(dim=-1).values.mean()  # expect: TEN501
            n += 1
        print(
            f"epoch {epoch}: kd {kd_sum / n:.4f} ce {ce_sum / n:.4f} "
            f"student conf {conf_sum / n:.3f}"
        )
    return student, torch.cat(teacher_bank)


if __name__ == "__main__":
    torch.manual_seed(0)
    teacher = make_mlp(512, 3)
    student = make_mlp(64, 2)
    loader = [(torch.randn(64, 128), torch.randint(0, 10, (64,))) for _ in range(40)]
    distill(teacher, student, loader, epochs=2)
