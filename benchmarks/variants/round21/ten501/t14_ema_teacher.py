"""Mean-teacher semi-supervised training with two EMA implementations."""
import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class ModelEMA:
    """timm/yolov5-style EMA: updates through state_dict() under no_grad."""

    def __init__(self, model, decay=0.99, tau=200):
        self.ema = copy.deepcopy(model).eval()
        self.updates = 0
        self.decay = lambda x: decay * (1 - math.exp(-x / tau))
        for p in self.ema.parameters():
            p.requires_grad_(False)

    def update(self, model):
        with torch.no_grad():
            self.updates += 1
            d = self.decay(self.updates)
            msd = model.state_dict()
            for k, v in self.ema.state_dict().items():
                if v.dtype.is_floating_point:
                    v.copy_(v * d + (1.0 - d) * msd[k])  # ok


class WeightEMA:
    """Hand-written EMA over .parameters() -- note: no torch.no_grad()."""

    def __init__(self, model, ema_model, alpha=0.99):
        self.model = model
        self.ema_model = ema_model
        self.alpha = alpha
        for ema_param in self.ema_model.parameters():
            ema_param.requires_grad_(False)

    def step(self):
        one_minus_alpha = 1.0 - self.alpha
        for param, ema_param in zip(self.model.parameters(), self.ema_model.parameters()):
            ema_param.mul_(self.alpha).add_(param * one_minus_alpha)  # expect: TEN501
        for buf, ema_buf in zip(self.model.buffers(), self.ema_model.buffers()):
            ema_buf.copy_(buf)  # ok


def make_net():
    return nn.Sequential(nn.Linear(10, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Linear(32, 3))


x_l = torch.randn(64, 10)
y_l = x_l[:, :3].argmax(1)
x_u = torch.randn(256, 10)

student = make_net()
teacher = make_net()
teacher.load_state_dict(student.state_dict())
ema_a = ModelEMA(student)
ema_b = WeightEMA(student, teacher, alpha=0.95)
opt = torch.optim.SGD(student.parameters(), lr=0.05, momentum=0.9)
consistency_log = []

for step in range(20):
    xu = x_u[(step * 32) % 256:(step * 32) % 256 + 32]
    logits_l = student(x_l)
    logits_u = student(xu + 0.1 * torch.randn_like(xu))
    with torch.no_grad():
        teacher.train()
        t_logits = teacher(xu + 0.1 * torch.randn_like(xu))
    consistency = F.mse_loss(F.softmax(logits_u, 1), F.softmax(t_logits, 1))
    loss = F.cross_entropy(logits_l, y_l) + 3.0 * consistency
    opt.zero_grad()
    loss.backward()
    opt.step()
    ema_a.update(student)
    ema_b.step()
    consistency_log.append(consistency.item())

with torch.no_grad():
    acc_s = (student.eval()(x_l).argmax(1) == y_l).float().mean().item()
    acc_a = (ema_a.ema(x_l).argmax(1) == y_l).float().mean().item()
    acc_b = (teacher.eval()(x_l).argmax(1) == y_l).float().mean().item()
w = next(teacher.parameters())
print("acc student/emaA/emaB:", acc_s, acc_a, acc_b)
print("teacher weight carries grad_fn:", w.grad_fn is not None, "consistency:", round(sum(consistency_log) / 20, 5))
