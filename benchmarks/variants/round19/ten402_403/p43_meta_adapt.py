"""Meta-test: adapt a meta-learned model to each task, then reset before the next task."""
import copy
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

model = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 1))
ckpt = {"model": model.state_dict(), "meta_step": 100}  # expect: TEN402
ckpt_ok = {"model": copy.deepcopy(model.state_dict()), "meta_step": 100}  # ok
init_vars = model.state_dict(keep_vars=True)  # expect: TEN402


def adapt(task_x, task_y, steps=5):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(steps):
        opt.zero_grad()
        nn.functional.mse_loss(model(task_x), task_y).backward()
        opt.step()
    return nn.functional.mse_loss(model(task_x), task_y).item()


losses = []
for task in range(3):
    w = torch.randn(2, 1)
    tx = torch.randn(10, 2)
    losses.append(adapt(tx, tx @ w))
    drift = (init_vars["2.weight"] - ckpt_ok["model"]["2.weight"]).abs().sum().item()
    model.load_state_dict(ckpt["model"])
    naive_reset_ok = torch.equal(model[2].weight.detach(), ckpt_ok["model"]["2.weight"])
    model.load_state_dict(ckpt_ok["model"])
    print(f"task {task}: loss {losses[-1]:.4f}; naive reset restored meta weights: {naive_reset_ok}; drift {drift:.4f}")
