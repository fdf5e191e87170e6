"""Knowledge distillation where teacher logits are cached per batch."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

teacher = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 5))
student = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 5))
teacher.eval()
opt = torch.optim.Adam(student.parameters(), lr=1e-3)
batches = [(torch.randn(6, 8), torch.randint(0, 5, (6,))) for _ in range(3)]
T, alpha = 2.0, 0.7

teacher_cache = {}
teacher_cache_detached = {}
teacher_probs_np = {}
kd_losses = []
student_logits_all = []
for epoch in range(2):
    for batch_idx, (xb, yb) in enumerate(batches):
        if batch_idx not in teacher_cache:
            teacher_cache[batch_idx] = teacher(xb)  # expect: TEN501
        t_logits = teacher_cache[batch_idx]
        teacher_cache_detached.setdefault(batch_idx, t_logits.detach())  # ok
        teacher_probs_np[batch_idx] = F.softmax(t_logits / T, dim=1).detach().numpy()  # ok

        s_logits = student(xb)
        soft_targets = F.softmax(teacher_cache_detached[batch_idx] / T, dim=1)
        kd_loss = F.kl_div(F.log_softmax(s_logits / T, dim=1), soft_targets, reduction="batchmean") * T * T
        ce = F.cross_entropy(s_logits, yb)
        loss = alpha * kd_loss + (1 - alpha) * ce
        opt.zero_grad()
        loss.backward()
        opt.step()
        kd_losses.append(kd_loss.item())  # ok
        student_logits_all.append(s_logits)  # expect: TEN501

print("kd:", [round(v, 4) for v in kd_losses])
