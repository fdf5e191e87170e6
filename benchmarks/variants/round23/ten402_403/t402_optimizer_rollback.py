"""Roll back model and optimizer state when a loss spike is detected."""
import copy

import torch
import torch.nn as nn


def run(deep):
    torch.manual_seed(0)
    model = nn.Linear(5, 3)
    opt = torch.optim.Adam(model.parameters(), lr=0.05)
    x, y = torch.randn(40, 5), torch.randn(40, 3)
    good_model = None
    good_opt = None
    for step in range(8):
        opt.zero_grad()
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
        if step == 3:
            good_model = copy.deepcopy(model.state_dict())  # ok
            if deep:
                good_opt = copy.deepcopy(opt.state_dict())  # ok
            else:
                good_opt = opt.state_dict()  # expect: TEN402
    # pretend a spike happened: roll back
    model.load_state_dict(good_model)
    opt.load_state_dict(good_opt)
    exp_avg = opt.state[model.weight]["exp_avg"]
    return exp_avg.abs().sum().item()


print("exp_avg after rollback (shallow): %.6f" % run(False))
print("exp_avg after rollback (deep): %.6f" % run(True))
