"""Self-distillation: the previous epoch's weights act as the teacher for the current epoch."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call

torch.manual_seed(0)
X, Y = torch.randn(120, 10), torch.randint(0, 5, (120,))


def make():
    torch.manual_seed(3)
    return nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 5))


def kd_loss(student_logits, teacher_logits, T=2.0):
    return F.kl_div(F.log_softmax(student_logits / T, 1), F.softmax(teacher_logits / T, 1),
                    reduction="batchmean") * T * T


def train_functional_teacher(epochs=6):
    model = make()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    kd = []
    for epoch in range(epochs):
        teacher_sd = dict(model.state_dict())  # expect: TEN402
        for i in range(0, 120, 30):
            xb, yb = X[i:i + 30], Y[i:i + 30]
            with torch.no_grad():
                t_logits = functional_call(model, teacher_sd, (xb,))
            s_logits = model(xb)
            loss = F.cross_entropy(s_logits, yb) + kd_loss(s_logits, t_logits)
            opt.zero_grad()
            loss.backward()
            opt.step()
            kd.append(kd_loss(s_logits, t_logits).item())
    return max(kd)


def train_module_teacher(epochs=6):
    model, teacher = make(), make()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    kd = []
    for epoch in range(epochs):
        teacher.load_state_dict(model.state_dict())  # ok
        for i in range(0, 120, 30):
            xb, yb = X[i:i + 30], Y[i:i + 30]
            with torch.no_grad():
                t_logits = teacher(xb)
            s_logits = model(xb)
            loss = F.cross_entropy(s_logits, yb) + kd_loss(s_logits, t_logits)
            opt.zero_grad()
            loss.backward()
            opt.step()
            kd.append(kd_loss(s_logits, t_logits).item())
    return max(kd)


if __name__ == "__main__":
    print("max KD term, live teacher:", train_functional_teacher())
    print("max KD term, separate teacher:", train_module_teacher())
