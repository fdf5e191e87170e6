"""Self-distillation across generations: each generation learns from the last one."""
import copy

import torch
import torch.nn as nn
from torch.func import functional_call

torch.manual_seed(0)
torch.set_num_threads(1)

x = torch.randn(120, 5)
y = (x[:, :2].sum(1) > 0).long()


def generation(model, teacher, steps=25, temp=2.0):
    opt = torch.optim.SGD(model.parameters(), lr=0.3)
    for _ in range(steps):
        logits = model(x)
        loss = nn.functional.cross_entropy(logits, y)
        if teacher is not None:
            with torch.no_grad():
                soft = functional_call(model, teacher, (x,)).div(temp).softmax(1)
            loss = loss + nn.functional.kl_div(logits.div(temp).log_softmax(1), soft, reduction="batchmean")
        opt.zero_grad()
        loss.backward()
        opt.step()


def run(style):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 2))
    names = [n for n, _ in model.named_parameters()]
    teacher = None
    for gen in range(3):
        generation(model, teacher)
        if style == "keep_vars":
            teacher = model.state_dict(keep_vars=True)  # expect: TEN402
        elif style == "shallow_list":
            teacher = dict(zip(names, copy.copy(list(model.parameters()))))  # expect: TEN402
        else:
            teacher = {n: p.detach().clone() for n, p in model.named_parameters()}  # ok
        if gen == 0:
            first_teacher = teacher
    drift = sum((first_teacher[n] - p).abs().sum().item() for n, p in model.named_parameters())
    print(f"style={style} first-generation teacher distance from final student={drift:.4f}")


for style in ("keep_vars", "shallow_list", "clone"):
    run(style)
