import copy
import torch
import torch.nn as nn

torch.manual_seed(0)

model = nn.Linear(6, 3)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
X, Y = torch.randn(64, 6), torch.randn(64, 3)


def train_steps(n):
    for _ in range(n):
        opt.zero_grad()
        nn.functional.mse_loss(model(X), Y).backward()
        opt.step()


train_steps(5)
saved_opt = opt.state_dict()  # expect: TEN402
saved_model = copy.deepcopy(model.state_dict())  # ok
ea = saved_opt["state"][0]["exp_avg"].norm().item()
print(f"exp_avg norm at snapshot {ea:.6f}")
train_steps(20)
opt.load_state_dict(saved_opt)
model.load_state_dict(saved_model)
print(f"exp_avg norm after restore {opt.state[model.weight]['exp_avg'].norm().item():.6f}")
train_steps(3)
with torch.no_grad():
    print(f"loss after restore+3 steps {nn.functional.mse_loss(model(X), Y).item():.6f}")
