"""Knowledge distillation where the teacher was never frozen."""
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
teacher = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 4))
student = nn.Sequential(nn.Linear(8, 6), nn.ReLU(), nn.Linear(6, 4))
opt = torch.optim.SGD(student.parameters(), lr=0.1)


def kd_loss(s_logits, t_logits, T):
    return F.kl_div(F.log_softmax(s_logits / T, -1), F.softmax(t_logits / T, -1),
                    reduction="batchmean") * T * T


teacher_cache, teacher_cache_ok = [], []
kd_terms, temps = [], []
ce_sum = torch.zeros(())

T = 4.0
for step in range(6):
    x = torch.randn(16, 8)
    y = torch.randint(0, 4, (16,))
    t_logits = teacher(x)
    with torch.no_grad():
        t_frozen = teacher(x)
    s_logits = student(x)
    ce = F.cross_entropy(s_logits, y)
    kd = kd_loss(s_logits, t_frozen, T)
    loss = 0.5 * ce + 0.5 * kd
    opt.zero_grad()
    loss.backward()
    opt.step()

    teacher_cache.append(t_logits)  # expect: TEN501
    teacher_cache_ok.append(t_frozen)  # ok
    kd_terms.append(kd)  # expect: TEN501
    ce_sum += ce.detach()  # ok
    temps.append(T)  # ok
    T = max(1.0, T * 0.8)

agree = (torch.cat(teacher_cache_ok).argmax(1) == student(torch.zeros(1, 8)).argmax(1)).float().mean()
print(len(teacher_cache), round(ce_sum.item(), 3), temps, round(agree.item(), 3))
