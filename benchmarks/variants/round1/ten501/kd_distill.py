"""Knowledge distillation from a fixed teacher."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


def kd_loss(student_logits, teacher_logits, T):
    return F.kl_div(F.log_softmax(student_logits / T, -1), F.softmax(teacher_logits / T, -1), reduction="batchmean") * T * T


def main(args):
    teacher = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 10)).eval()
    student = nn.Sequential(nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 10))
    opt = torch.optim.SGD(student.parameters(), lr=0.05)
    for epoch in range(args.epochs):
        kd_sum, ce_sum = 0.0, 0.0
        teacher_logits_all = []
        for _ in range(args.steps):
            x, y = torch.randn(32, 16), torch.randint(0, 10, (32,))
            with torch.no_grad():
                t_logits = teacher(x)
                teacher_logits_all.append(t_logits)  # ok
            s_logits = student(x)
            kd = kd_loss(s_logits, t_logits, args.T)
            ce = F.cross_entropy(s_logits, y)
            loss = args.alpha * kd + (1 - args.alpha) * ce
            opt.zero_grad()
            loss.backward()
            opt.step()
            kd_sum += kd  # expect: TEN501
            ce_sum += ce.item()  # ok
        print(f"epoch {epoch}: kd {float(kd_sum) / args.steps:.4f} ce {ce_sum / args.steps:.4f}")


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--steps", type=int, default=4)
    ap.add_argument("--T", type=float, default=4.0)
    ap.add_argument("--alpha", type=float, default=0.7)
    main(ap.parse_args([]))
