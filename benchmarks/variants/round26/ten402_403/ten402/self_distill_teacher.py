import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call

torch.manual_seed(0)

student = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 5))
X = torch.randn(400, 16)
Y = (X[:, :5] + 0.5 * torch.randn(400, 5)).argmax(1)
opt = torch.optim.Adam(student.parameters(), lr=3e-3)
T = 2.0


def teacher_logits(params, x):
    params = {k: v.float() for k, v in params.items()}
    return functional_call(student, params, (x,))


teacher = None
shadow64 = None
for gen in range(3):
    for step in range(40):
        idx = torch.randint(0, 400, (64,))
        logits = student(X[idx])
        loss = F.cross_entropy(logits, Y[idx])
        if teacher is not None:
            with torch.no_grad():
                t = teacher_logits(teacher, X[idx])
            loss = loss + 0.7 * T * T * F.kl_div(F.log_softmax(logits / T, 1), F.softmax(t / T, 1), reduction="batchmean")
        opt.zero_grad()
        loss.backward()
        opt.step()
    # the generation just trained becomes the teacher of the next one
    teacher = {k: v.float() for k, v in student.state_dict().items()}  # expect: TEN402
    shadow64 = {k: v.double() for k, v in student.state_dict().items()}  # ok
    print(f"gen {gen} loss {loss.item():.6f}")

with torch.no_grad():
    print(f"final agreement with last teacher {(student(X).argmax(1) == teacher_logits(teacher, X).argmax(1)).float().mean().item():.4f}")
    print(f"final distance to fp64 shadow {sum((student.state_dict()[k].double() - v).norm() for k, v in shadow64.items()).item():.6f}")
