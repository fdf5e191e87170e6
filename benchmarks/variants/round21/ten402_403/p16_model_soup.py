"""Model soups (Wortsman et al. 2022): fine-tune the same pretrained model with several learning
rates, then average the fine-tuned weights (uniform soup)."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def finetune(model, data, lr, steps=25):
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    for _ in range(steps):
        opt.zero_grad()
        F.cross_entropy(model(data[0]), data[1]).backward()
        opt.step()


def evaluate(model, data):
    with torch.no_grad():
        return F.cross_entropy(model(data[0]), data[1]).item()


def make_model():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(12, 48), nn.GELU(), nn.Linear(48, 5))


def cook(careful):
    model = make_model()
    g = torch.Generator().manual_seed(21)
    x = torch.randn(300, 12, generator=g)
    y = (x[:, :5] + 0.5 * torch.randn(300, 5, generator=g)).argmax(1)
    train, val = (x[:200], y[:200]), (x[200:], y[200:])
    if careful:
        pretrained = copy.deepcopy(model.state_dict())  # ok
    else:
        pretrained = model.state_dict()  # expect: TEN402
    ingredients = []
    for lr in (0.01, 0.03, 0.1):
        model.load_state_dict(pretrained)
        finetune(model, train, lr)
        if careful:
            ingredients.append({k: v.clone() for k, v in model.state_dict().items()})  # ok
        else:
            ingredients.append(model.state_dict())  # expect: TEN402
    singles = []
    for sd in ingredients:
        m = make_model()
        m.load_state_dict(sd)
        singles.append(round(evaluate(m, val), 4))
    soup = make_model()
    soup.load_state_dict({k: torch.stack([sd[k] for sd in ingredients]).mean(0) for k in ingredients[0]})
    print(f"careful={careful}: ingredient val losses={singles} uniform soup val loss={evaluate(soup, val):.4f}")


if __name__ == "__main__":
    cook(careful=False)
    cook(careful=True)
