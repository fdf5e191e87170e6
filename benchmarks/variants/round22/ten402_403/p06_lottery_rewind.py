"""Iterative magnitude pruning with late rewinding (lottery-ticket style)."""
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)


def make_rewinder(model):
    saved = {}

    def remember(step):
        saved["rewind"] = model.state_dict()  # expect: TEN402
        saved["step"] = step

    def remember_init():
        saved["init"] = {k: v.clone() for k, v in model.state_dict().items()}  # ok

    def rewind(masks, to="rewind"):
        model.load_state_dict(saved[to])
        with torch.no_grad():
            for name, p in model.named_parameters():
                if name in masks:
                    p.mul_(masks[name])
        return saved.get("step", 0) if to == "rewind" else 0

    return remember, remember_init, rewind


def magnitude_masks(model, frac):
    masks = {}
    for name, p in model.named_parameters():
        if p.dim() == 2:
            k = int(p.numel() * frac)
            thresh = p.detach().abs().flatten().kthvalue(k).values
            masks[name] = (p.detach().abs() > thresh).float()
    return masks


model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4))
remember, remember_init, rewind = make_rewinder(model)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
x = torch.randn(96, 8)
y = x[:, :4].argmax(1)

remember_init()
for step in range(30):
    if step == 3:
        remember(step)
    opt.zero_grad()
    F.cross_entropy(model(x), y).backward()
    opt.step()
print(f"dense trained loss {F.cross_entropy(model(x), y).item():.5f}")

masks = magnitude_masks(model, frac=0.5)
at = rewind(masks)
with torch.no_grad():
    print(f"rewound to step {at}: loss {F.cross_entropy(model(x), y).item():.5f}, "
          f"w[0,:4] {[round(v, 4) for v in model[0].weight[0, :4].tolist()]}")
rewind(masks, to="init")
with torch.no_grad():
    print(f"rewound to init: loss {F.cross_entropy(model(x), y).item():.5f}")
