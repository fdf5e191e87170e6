"""Uniform model soup: fine-tune from one init with different lrs, average the ingredients."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

X = torch.randn(40, 6)
y = X @ torch.randn(6, 1) + 0.1 * torch.randn(40, 1)

model = nn.Linear(6, 1)
init = {k: v.detach().clone() for k, v in model.state_dict().items()}  # ok

ingredients = []
ingredients_ok = []
for lr in (0.01, 0.05, 0.1):
    model.load_state_dict(init)
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    for _ in range(10):
        opt.zero_grad()
        ((model(X) - y) ** 2).mean().backward()
        opt.step()
    ingredients.append(model.state_dict())  # expect: TEN402
    ingredients_ok.append({k: v.detach().clone() for k, v in model.state_dict().items()})  # ok


def soup(states):
    return {k: torch.stack([s[k] for s in states]).mean(0) for k in states[0]}


naive, good = soup(ingredients), soup(ingredients_ok)
spread = torch.stack([s["weight"] for s in ingredients]).std(0).sum().item()
spread_ok = torch.stack([s["weight"] for s in ingredients_ok]).std(0).sum().item()
print(f"ingredient spread naive={spread:.5f} cloned={spread_ok:.5f}")
print("soup diff", (naive["weight"] - good["weight"]).abs().sum().item())
