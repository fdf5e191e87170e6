"""Iterative magnitude pruning with weight rewinding (lottery ticket style)."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


def train(model, masks, x, y, steps=40):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(steps):
        opt.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        opt.step()
        with torch.no_grad():
            for name, p in model.named_parameters():
                if name in masks:
                    p.mul_(masks[name])


def prune(model, masks, frac=0.3):
    for name, p in model.named_parameters():
        if name.endswith("weight"):
            alive = p.detach().abs()[masks[name].bool()]
            thresh = alive.kthvalue(max(1, int(frac * alive.numel()))).values
            masks[name] = masks[name] * (p.detach().abs() > thresh).float()


def lottery(rewind_style):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 3))
    x, y = torch.randn(100, 10), torch.randint(0, 3, (100,))
    if rewind_style == "dict":
        theta0 = dict(model.state_dict())  # expect: TEN402
    else:
        theta0 = {k: v.clone() for k, v in model.state_dict().items()}  # ok
    init_first = model[0].weight.detach().clone()  # ok
    masks = {n: torch.ones_like(p) for n, p in model.named_parameters() if n.endswith("weight")}
    for _ in range(2):
        train(model, masks, x, y)
        prune(model, masks)
        model.load_state_dict(theta0)
        with torch.no_grad():
            for name, p in model.named_parameters():
                if name in masks:
                    p.mul_(masks[name])
    m = masks["0.weight"].bool()
    rewound_ok = torch.equal(model[0].weight[m], init_first[m])
    print(f"rewind_style={rewind_style} kept={m.float().mean():.2f} surviving_weights_match_init={rewound_ok}")


lottery("dict")
lottery("clone")
