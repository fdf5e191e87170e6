"""Reptile meta-learning on random sine tasks."""
import copy
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


def sample_task():
    amp = torch.rand(1) * 2 + 0.5
    phase = torch.rand(1) * math.pi
    x = torch.rand(20, 1) * 10 - 5
    return x, amp * torch.sin(x + phase)


def inner_train(model, x, y, steps=5, lr=0.02):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    for _ in range(steps):
        opt.zero_grad()
        nn.functional.mse_loss(model(x), y).backward()
        opt.step()


def meta_train(shallow):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 1))
    eps = 0.5
    total_move = 0.0
    for it in range(10):
        if shallow:
            meta_weights = copy.copy(model.state_dict())  # expect: TEN402
        else:
            meta_weights = copy.deepcopy(model.state_dict())  # ok
        x, y = sample_task()
        inner_train(model, x, y)
        adapted = model.state_dict()  # ok
        new_state = {k: meta_weights[k] + eps * (adapted[k] - meta_weights[k]) for k in adapted}
        total_move += sum((new_state[k] - meta_weights[k]).norm().item() for k in adapted)
        model.load_state_dict(new_state)
    print(f"shallow={shallow} total meta displacement={total_move:.4f}")


meta_train(True)
meta_train(False)
