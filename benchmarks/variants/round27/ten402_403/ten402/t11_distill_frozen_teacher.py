"""Self-distillation: stage-1 weights act as a frozen teacher for stage 2."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call

torch.manual_seed(0)

X = torch.randn(200, 8)
y = (X[:, 0] * X[:, 1] > 0).long()
student = nn.Sequential(nn.Linear(8, 24), nn.ReLU(), nn.Linear(24, 2))
opt = torch.optim.Adam(student.parameters(), lr=0.02)

for _ in range(40):
    opt.zero_grad()
    F.cross_entropy(student(X), y).backward()
    opt.step()

teacher_params = {n: p.detach() for n, p in student.named_parameters()}  # expect: TEN402
teacher_model = nn.Sequential(nn.Linear(8, 24), nn.ReLU(), nn.Linear(24, 2))
teacher_model.load_state_dict(student.state_dict())  # ok
T = 2.0
for step in range(40):
    with torch.no_grad():
        t_logits = functional_call(student, teacher_params, (X,))
        t_logits2 = teacher_model(X)
    s_logits = student(X)
    kd = F.kl_div(F.log_softmax(s_logits / T, 1), F.softmax(t_logits / T, 1), reduction="batchmean")
    loss = F.cross_entropy(s_logits, y) + 5.0 * kd
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 9:
        gap = (t_logits - t_logits2).abs().max().item()
        print(f"step {step} kd {kd.item():.6f} teacher gap {gap:.5f}")
