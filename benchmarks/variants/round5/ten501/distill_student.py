"""Knowledge distillation: big frozen teacher -> small student (Hinton et al. KD loss)."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

T = 4.0
ALPHA = 0.7


def make_teacher():
    return nn.Sequential(nn.Linear(32, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 10))


def make_student():
    return nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 10))


def kd_criterion(s_logits, t_logits, temperature=T):
    return F.kl_div(
        F.log_softmax(s_logits / temperature, dim=-1),
        F.softmax(t_logits / temperature, dim=-1),
        reduction="batchmean",
    ) * temperature * temperature


def distill(teacher, student, loader, epochs=3):
    teacher.eval()
    opt = torch.optim.Adam(student.parameters(), lr=1e-3)
    teacher_cache = []
    for epoch in range(epochs):
        kd_terms = []
        ce_running = 0.0
        for xb, yb in loader:
            with torch.no_grad():
                t_logits = teacher(xb)
            s_logits = student(xb)
            kd_loss = kd_criterion(s_logits, t_logits)
            ce_loss = F.cross_entropy(s_logits, yb)
            loss = ALPHA * kd_loss + (1 - ALPHA) * ce_loss
            opt.zero_grad()
            loss.backward()
            opt.step()
            kd_terms.append(kd_loss)  # expect: TEN501
            teacher_cache.append(t_logits)  # ok
            ce_running += ce_loss.item()  # ok
        print(f"epoch {epoch}: kd {torch.stack(kd_terms).mean().item():.4f} ce {ce_running / len(loader):.4f}")
    return teacher_cache


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(512, 32)
    y = torch.randint(0, 10, (512,))
    dl = DataLoader(TensorDataset(x, y), batch_size=64, shuffle=True)
    distill(make_teacher(), make_student(), dl)
