"""Born-again self-distillation: teacher = the student of the previous generation."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def build():
    return nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 4))


def distill_step(student, teacher, x, y, opt, T=2.0):
    with torch.no_grad():
        soft = F.softmax(teacher(x) / T, -1)
    logits = student(x)
    loss = 0.5 * F.cross_entropy(logits, y) + 0.5 * F.kl_div(F.log_softmax(logits / T, -1), soft, reduction="batchmean")
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


@torch.no_grad()
def sgd_rebind(model, lr):
    # functional-style update: every parameter is replaced by a fresh Parameter
    for mod in model:
        if isinstance(mod, nn.Linear):
            mod.weight = nn.Parameter(mod.weight - lr * mod.weight.grad)
            mod.bias = nn.Parameter(mod.bias - lr * mod.bias.grad)


torch.manual_seed(0)
x = torch.randn(128, 8)
y = (x[:, :4] + 0.5 * torch.randn(128, 4)).argmax(1)
student, teacher = build(), build()
opt = torch.optim.SGD(student.parameters(), lr=0.2)
for gen in range(3):
    teacher_sd = student.state_dict()  # expect: TEN402
    for _ in range(15):
        distill_step(student, teacher, x, y, opt)
    teacher.load_state_dict(teacher_sd)
    with torch.no_grad():
        agree = (teacher(x).argmax(1) == student(x).argmax(1)).float().mean().item()
        kl = F.kl_div(F.log_softmax(student(x), -1), F.softmax(teacher(x), -1), reduction="batchmean").item()
    print(f"gen {gen}: teacher/student agreement {agree:.4f} kl {kl:.6f}")

# second variant: parameters are rebound, never changed in place
student2 = build()
anchor = student2.state_dict()  # ok
for _ in range(10):
    student2.zero_grad()
    F.cross_entropy(student2(x), y).backward()
    sgd_rebind(student2, 0.2)
moved = sum((student2.state_dict()[k] - anchor[k]).norm().item() for k in anchor)
print("rebinding variant moved", round(moved, 6))
