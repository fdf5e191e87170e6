"""Knowledge distillation from a frozen teacher; all bookkeeping is graph-free."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def make_mlp(width):
    return nn.Sequential(nn.Linear(10, width), nn.ReLU(), nn.Linear(width, 5))


def kd_loss(student_logits, teacher_logits, labels, T=2.0, alpha=0.7):
    soft = F.kl_div(F.log_softmax(student_logits / T, -1), F.softmax(teacher_logits / T, -1), reduction="batchmean")
    return alpha * soft * T * T + (1 - alpha) * F.cross_entropy(student_logits, labels)


def distill(teacher, student, batches, epochs=2):
    teacher.eval()
    teacher.requires_grad_(False)
    opt = torch.optim.Adam(student.parameters(), lr=5e-3)
    teacher_cache, kd_losses = [], []
    agreement, seen = 0.0, 0
    per_epoch = {}
    for epoch in range(epochs):
        epoch_sum = 0.0
        for x, y in batches:
            t_logits = teacher(x)
            teacher_cache.append(t_logits)  # ok
            s_logits = student(x)
            loss = kd_loss(s_logits, t_logits, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            kd_losses.append(loss.detach())  # ok
            agreement += (s_logits.argmax(1) == t_logits.argmax(1)).float().sum()  # ok
            seen += len(x)  # ok
            epoch_sum += loss.item()  # ok
        per_epoch[epoch] = epoch_sum / len(batches)  # ok
    return per_epoch, float(agreement) / seen, len(teacher_cache)


if __name__ == "__main__":
    torch.manual_seed(0)
    teacher, student = make_mlp(32), make_mlp(8)
    batches = [(torch.randn(12, 10), torch.randint(0, 5, (12,))) for _ in range(4)]
    print(distill(teacher, student, batches))
