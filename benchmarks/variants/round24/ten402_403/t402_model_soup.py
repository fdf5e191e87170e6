"""Uniform model soup over several fine-tuning runs that reuse one model object."""
import torch
import torch.nn as nn

torch.manual_seed(0)


def finetune(model, pretrained, x, y, lr, steps=8):
    model.load_state_dict(pretrained)
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    for _ in range(steps):
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()


def make_soup(ingredients):
    keys = ingredients[0].keys()
    return {k: torch.stack([i[k].detach() for i in ingredients]).mean(0) for k in keys}


if __name__ == "__main__":
    x = torch.randn(50, 5)
    y = (x.sum(1) > 0).long()
    model = nn.Sequential(nn.Linear(5, 10), nn.ReLU(), nn.Linear(10, 2))
    pretrained = {k: v.clone() for k, v in model.state_dict().items()}  # ok
    ingredients, ingredients_ok = [], []
    for lr in (0.01, 0.1, 0.5):
        finetune(model, pretrained, x, y, lr)
        ingredients.append(dict(model.named_parameters()))  # expect: TEN402
        ingredients_ok.append({n: p.detach().clone() for n, p in model.named_parameters()})  # ok
    for name, ing in (("live", ingredients), ("cloned", ingredients_ok)):
        model.load_state_dict(make_soup(ing))
        with torch.no_grad():
            print(name, f"{nn.functional.cross_entropy(model(x), y).item():.6f}")
