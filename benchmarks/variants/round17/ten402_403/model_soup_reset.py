"""Uniform model soup: fine-tune several runs from one base, then average."""
import torch
from torch import nn

torch.manual_seed(0)
torch.set_num_threads(1)


def finetune(model, seed, steps=25):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(64, 6, generator=g)
    y = (x[:, :3].sum(1) > 0).long()
    opt = torch.optim.SGD(model.parameters(), lr=0.2)
    for _ in range(steps):
        opt.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        opt.step()


def cook(base_fn, seeds=(1, 2, 3, 4)):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(6, 20), nn.ReLU(), nn.Linear(20, 2))
    finetune(model, 0, steps=10)
    base = base_fn(model)
    ingredients = []
    for s in seeds:
        model.load_state_dict(base)
        finetune(model, s)
        ingredients.append({k: v.detach().clone() for k, v in model.state_dict().items()})  # ok
    soup = {k: torch.stack([ing[k] for ing in ingredients]).mean(0) for k in ingredients[0]}  # ok
    spread = torch.stack([ing["0.weight"] for ing in ingredients]).std(0).mean().item()
    model.load_state_dict(soup)
    return spread


def base_alias(model):
    base = model.state_dict()  # expect: TEN402
    return base


def base_clone(model):
    base = {k: v.clone() for k, v in model.state_dict().items()}  # ok
    return base


if __name__ == "__main__":
    print("aliased base: ingredient spread", round(cook(base_alias), 5))
    print("cloned base:  ingredient spread", round(cook(base_clone), 5))
