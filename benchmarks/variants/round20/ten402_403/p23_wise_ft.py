"""WiSE-FT style interpolation between the pre-trained and fine-tuned weights."""
import collections

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

x_pre = torch.randn(200, 4)
y_pre = (x_pre[:, 0] > 0).long()
x_ft = torch.randn(60, 4) + 1.0
y_ft = (x_ft[:, 1] > 1.0).long()


def train(model, x, y, steps, lr=0.3):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    for _ in range(steps):
        opt.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        opt.step()


def acc(model, x, y):
    with torch.no_grad():
        return (model(x).argmax(1) == y).float().mean().item()


def run(style):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))
    train(model, x_pre, y_pre, 80)
    sd = model.state_dict()  # ok
    if style == "unpack":
        theta_0 = {**sd}  # expect: TEN402
    elif style == "ordered":
        theta_0 = collections.OrderedDict(sd)  # expect: TEN402
    else:
        theta_0 = collections.OrderedDict((k, v.clone()) for k, v in sd.items())  # ok
    train(model, x_ft, y_ft, 80)
    theta_1 = {k: v.clone() for k, v in model.state_dict().items()}  # ok
    mixed = {k: 0.5 * theta_0[k] + 0.5 * theta_1[k] for k in theta_1}
    model.load_state_dict(mixed)
    print(f"style={style} mixed==finetuned: {all(torch.allclose(mixed[k], theta_1[k]) for k in mixed)} "
          f"pre-acc={acc(model, x_pre, y_pre):.3f} ft-acc={acc(model, x_ft, y_ft):.3f}")


for style in ("unpack", "ordered", "clone"):
    run(style)
