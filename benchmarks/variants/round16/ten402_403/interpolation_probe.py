"""Loss along the straight line between the initial and the trained weights."""
import io

import torch
import torch.nn as nn
from torch.nn.utils import parameters_to_vector, vector_to_parameters

torch.manual_seed(0)
torch.set_num_threads(1)


def task(n=300):
    x = torch.randn(n, 3)
    y = (x.pow(2).sum(1) > 3).long()
    return x, y


def loss_of(model, x, y):
    with torch.no_grad():
        return nn.functional.cross_entropy(model(x), y).item()


@torch.no_grad()
def loss_along_line(model, start, end, x, y, points=5):
    out = []
    for a in torch.linspace(0, 1, points):
        for p, s, e in zip(model.parameters(), start, end):
            p.copy_((1 - a) * s + a * e)
        out.append(round(loss_of(model, x, y), 4))
    return out


def main():
    x, y = task()
    model = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, 2))
    init_params = list(model.parameters())  # expect: TEN402
    init_copies = [p.detach().clone() for p in model.parameters()]  # ok
    init_vector = parameters_to_vector(model.parameters())  # ok
    opt = torch.optim.Adam(model.parameters(), lr=0.02)
    for _ in range(150):
        opt.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        opt.step()
    export = model.state_dict()  # ok
    blob = io.BytesIO()
    torch.save(export, blob)
    del export
    final = [p.detach().clone() for p in model.parameters()]  # ok
    print("trained loss", round(loss_of(model, x, y), 4))
    print("path from init_params :", loss_along_line(model, init_params, final, x, y))
    print("path from init_copies :", loss_along_line(model, init_copies, final, x, y))
    vector_to_parameters(init_vector, model.parameters())
    print("loss at init (from vector)", round(loss_of(model, x, y), 4))


if __name__ == "__main__":
    main()
