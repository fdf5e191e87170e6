"""Self-distillation: the teacher is the student from the previous generation."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call

torch.manual_seed(0)
torch.set_num_threads(1)

student = nn.Sequential(nn.Linear(5, 12), nn.ReLU(), nn.Linear(12, 3))
X = torch.randn(48, 5)
Y = torch.randint(0, 3, (48,))
opt = torch.optim.SGD(student.parameters(), lr=0.3)

for gen in range(3):
    teacher_params = dict(student.named_parameters())  # expect: TEN402
    teacher_params_ok = {k: v.detach().clone() for k, v in student.named_parameters()}  # ok
    for _ in range(6):
        with torch.no_grad():
            t_logits = functional_call(student, teacher_params_ok, (X,))
            t_naive = functional_call(student, teacher_params, (X,))
        s_logits = student(X)
        loss = F.cross_entropy(s_logits, Y) + F.kl_div(s_logits.log_softmax(1), t_logits.softmax(1), reduction="batchmean")
        opt.zero_grad()
        loss.backward()
        opt.step()
    gap = (t_naive - student(X)).abs().max().item()
    print(f"gen {gen}: loss={loss.item():.4f} naive-teacher vs student gap={gap:.6f}")
