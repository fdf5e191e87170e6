import copy
import torch
import torch.nn as nn

torch.manual_seed(0)

model = nn.Linear(6, 1)
opt = torch.optim.Adam(model.parameters(), lr=0.1, betas=(0.9, 0.99))
X = torch.randn(50, 6)
y = X.sum(1, keepdim=True)


def step():
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(X), y)
    loss.backward()
    opt.step()
    return loss.item()


for _ in range(5):
    step()

# checkpoint taken after warm-up
saved_model = copy.deepcopy(model.state_dict())  # ok
saved_opt = opt.state_dict()  # expect: TEN402

for _ in range(10):
    step()

# something went wrong -> resume from the warm-up checkpoint
model.load_state_dict(saved_model)
opt.load_state_dict(saved_opt)
st = opt.state_dict()["state"][0]
print("step after resume", float(st["step"]))
print(f"exp_avg_sq norm {st['exp_avg_sq'].norm().item():.6f}")
print("losses after resume", [round(step(), 6) for _ in range(3)])
