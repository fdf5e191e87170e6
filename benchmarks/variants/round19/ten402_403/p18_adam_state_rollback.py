"""Roll back both model and optimizer state after a rejected trust-region step."""
import copy
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

model = nn.Linear(6, 1)
opt = torch.optim.Adam(model.parameters(), lr=0.3)
X, Y = torch.randn(40, 6), torch.randn(40, 1)


def loss_now():
    with torch.no_grad():
        return ((model(X) - Y) ** 2).mean().item()


for _ in range(3):
    opt.zero_grad()
    ((model(X) - Y) ** 2).mean().backward()
    opt.step()

accepted = rejected = 0
for it in range(6):
    saved_model = model.state_dict().copy()  # expect: TEN402
    saved_opt = opt.state_dict()  # expect: TEN402
    saved_model_ok = copy.deepcopy(model.state_dict())  # ok
    saved_opt_ok = copy.deepcopy(opt.state_dict())  # ok
    before = loss_now()
    opt.zero_grad()
    ((model(X[:8]) - Y[:8]) ** 2).mean().backward()
    opt.step()
    if loss_now() > before:
        naive_same = torch.equal(saved_model["weight"], model.weight.detach())
        step_naive = saved_opt["state"][0]["step"].item()
        model.load_state_dict(saved_model_ok)
        opt.load_state_dict(saved_opt_ok)
        rejected += 1
        print(f"it={it} rejected; naive snapshot==live: {naive_same}, naive step count={step_naive}")
    else:
        accepted += 1
print("accepted", accepted, "rejected", rejected, "final loss", round(loss_now(), 4))
