"""Gradient-noise / loss-landscape probe that evaluates the model at interpolated weights."""
import torch
import torch.nn as nn

torch.manual_seed(0)


@torch.no_grad()
def interpolate(model, start, end, alpha):
    for n, p in model.named_parameters():
        p.copy_((1 - alpha) * start[n] + alpha * end[n])


@torch.no_grad()
def landscape(model, start, end, x, y, points=5):
    losses = []
    for i in range(points):
        interpolate(model, start, end, i / (points - 1))
        losses.append(nn.functional.mse_loss(model(x), y).item())
    return losses


if __name__ == "__main__":
    x = torch.randn(40, 3)
    y = torch.sin(x.sum(1, keepdim=True))
    model = nn.Sequential(nn.Linear(3, 12), nn.Tanh(), nn.Linear(12, 1))
    start = {n: p.detach().clone() for n, p in model.named_parameters()}  # ok
    opt = torch.optim.Adam(model.parameters(), lr=0.05)
    for _ in range(40):
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    end_live = {n: p.detach() for n, p in model.named_parameters()}  # expect: TEN402
    end_copy = {n: p.detach().clone() for n, p in model.named_parameters()}  # ok
    a = landscape(model, start, end_copy, x, y)
    interpolate(model, end_copy, end_copy, 1.0)
    b = landscape(model, start, end_live, x, y)
    print("landscape(copy)", [round(v, 6) for v in a])
    print("landscape(live)", [round(v, 6) for v in b])
