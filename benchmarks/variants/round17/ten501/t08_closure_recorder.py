"""Closure-based recorders and smoothers handed the loss every step."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


def make_recorder():
    values = []

    def record(v):
        values.append(v)
        return len(values)

    record.values = values
    return record


def make_smoother(beta=0.9):
    state = {"avg": None}

    def smooth(v):
        prev = state["avg"]
        state["avg"] = v if prev is None else beta * prev + (1 - beta) * v
        return state["avg"]

    return smooth


record_loss = make_recorder()
record_lr = make_recorder()
record_loss_value = make_recorder()
smooth = make_smoother()
smooth_value = make_smoother()

model = nn.Linear(5, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.95)

for step in range(10):
    x = torch.randn(12, 5)
    y = x.sum(dim=1, keepdim=True)
    loss = ((model(x) - y) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()

    record_loss(loss)  # expect: TEN501
    record_loss_value(loss.item())  # ok
    record_lr(sched.get_last_lr()[0])  # ok
    smooth(loss)  # expect: TEN501
    shown = smooth_value(loss.detach())  # ok

print(len(record_loss.values), float(shown))
