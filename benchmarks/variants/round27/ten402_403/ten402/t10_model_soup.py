import copy
import torch
import torch.nn as nn

torch.manual_seed(0)

X = torch.randn(120, 5)
Y = torch.sin(X @ torch.randn(5, 1))
Xv, Yv = torch.randn(40, 5), None
Yv = torch.sin(Xv @ torch.randn(5, 1) * 0 + Xv[:, :1])

base = nn.Sequential(nn.Linear(5, 16), nn.GELU(), nn.Linear(16, 1))
base_sd = copy.deepcopy(base.state_dict())
model = nn.Sequential(nn.Linear(5, 16), nn.GELU(), nn.Linear(16, 1))

ingredients, ingredients_ok = [], []
for lr in (0.01, 0.03, 0.1, 0.3):
    model.load_state_dict(base_sd)
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    for _ in range(30):
        opt.zero_grad()
        nn.functional.mse_loss(model(X), Y).backward()
        opt.step()
    ingredients.append(copy.copy(model.state_dict()))  # expect: TEN402
    ingredients_ok.append(copy.deepcopy(model.state_dict()))  # ok
    with torch.no_grad():
        print(f"lr {lr}: val {nn.functional.mse_loss(model(Xv), Yv).item():.5f}")


def uniform_soup(states):
    return {k: sum(s[k] for s in states) / len(states) for k in states[0]}


for tag, ing in (("shallow", ingredients), ("deep", ingredients_ok)):
    model.load_state_dict(uniform_soup(ing))
    with torch.no_grad():
        print(f"{tag} soup val {nn.functional.mse_loss(model(Xv), Yv).item():.5f}")
