"""Knowledge distillation from a frozen teacher; keep the best student seen."""
import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

T = 2.0


def mlp(width):
    return nn.Sequential(nn.Linear(8, width), nn.ReLU(), nn.Linear(width, 5))


def kd_loss(student_logits, teacher_logits):
    return F.kl_div(F.log_softmax(student_logits / T, 1), F.softmax(teacher_logits / T, 1),
                    reduction="batchmean") * T * T


def main():
    teacher = mlp(64).eval().requires_grad_(False)
    teacher_ref = teacher.state_dict()  # ok
    student = mlp(8)
    opt = torch.optim.Adam(student.parameters(), lr=3e-2)
    x = torch.randn(128, 8)
    xval = torch.randn(64, 8)
    best, best_kd = None, float("inf")
    for epoch in range(20):
        opt.zero_grad()
        with torch.no_grad():
            t_logits = teacher(x)
        kd_loss(student(x), t_logits).backward()
        opt.step()
        with torch.no_grad():
            val_kd = kd_loss(student(xval), teacher(xval)).item()
        if val_kd < best_kd and epoch % 4 == 0:
            best_kd = val_kd
            best = student.state_dict()  # expect: TEN402
    for k, v in teacher_ref.items():
        assert torch.equal(v, teacher.state_dict()[k]), k
    student.load_state_dict(best)
    with torch.no_grad():
        restored = kd_loss(student(xval), teacher(xval)).item()
    print(f"best val kd {best_kd:.4f}, after restoring 'best' {restored:.4f}")


if __name__ == "__main__":
    main()
