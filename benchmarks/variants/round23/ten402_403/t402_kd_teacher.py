"""Knowledge distillation; sanity-check that the teacher did not change during distillation."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def teacher_net():
    return nn.Sequential(nn.Linear(6, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Linear(16, 4))


def distill(teacher, student, x, steps=4, T=2.0):
    opt = torch.optim.SGD(student.parameters(), lr=0.1)
    for _ in range(steps):
        with torch.no_grad():
            t_logits = teacher(x)
        s_logits = student(x)
        loss = F.kl_div(F.log_softmax(s_logits / T, 1), F.softmax(t_logits / T, 1), reduction="batchmean")
        opt.zero_grad()
        loss.backward()
        opt.step()


def max_change(ref, module):
    return max((ref[k].float() - v.float()).abs().max().item() for k, v in module.state_dict().items())


x = torch.randn(32, 6)

# teacher properly frozen and in eval mode: nothing in it can change
teacher = teacher_net()
teacher.eval()
for p in teacher.parameters():
    p.requires_grad_(False)
teacher_ref = teacher.state_dict()  # ok
student = nn.Linear(6, 4)
student_init = copy.deepcopy(student.state_dict())  # ok
distill(teacher, student, x)
print("eval teacher change: %.6f" % max_change(teacher_ref, teacher))
print("student change: %.6f" % max_change(student_init, student))

# teacher frozen but left in train mode: BatchNorm buffers keep updating
teacher_bn = teacher_net()
for p in teacher_bn.parameters():
    p.requires_grad_(False)
teacher_bn_ref = teacher_bn.state_dict()  # expect: TEN402
distill(teacher_bn, nn.Linear(6, 4), x + 1.0)
print("train-mode teacher change: %.6f" % max_change(teacher_bn_ref, teacher_bn))
