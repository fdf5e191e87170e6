"""Uniform model soup: fine-tune one model with several seeds and average."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

base = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2))
base_state = {k: v.clone() for k, v in base.state_dict().items()}  # ok
x = torch.randn(200, 8)
y = (x[:, 0] * x[:, 1] > 0).long()


def finetune(model, seed, steps=30):
    g = torch.Generator().manual_seed(seed)
    opt = torch.optim.SGD(model.parameters(), lr=0.2)
    for _ in range(steps):
        idx = torch.randint(0, 200, (32,), generator=g)
        opt.zero_grad()
        nn.functional.cross_entropy(model(x[idx]), y[idx]).backward()
        opt.step()


def cook(mode):
    ingredients = []
    for seed in range(4):
        base.load_state_dict(base_state)
        finetune(base, seed)
        sd = base.state_dict()  # ok
        if mode == "float":
            ingredients.append({k: v.float() for k, v in sd.items()})  # expect: TEN402
        else:
            ingredients.append({k: v.to(torch.float64) for k, v in sd.items()})  # ok
    spread = torch.stack([ing["0.weight"] for ing in ingredients]).std(0).mean().item()
    soup = {k: torch.stack([ing[k] for ing in ingredients]).mean(0).float() for k in ingredients[0]}
    base.load_state_dict(soup)
    with torch.no_grad():
        acc = (base(x).argmax(1) == y).float().mean().item()
    print(f"mode={mode} ingredient_spread={spread:.5f} soup_acc={acc:.3f}")


cook("float")
cook("float64")
