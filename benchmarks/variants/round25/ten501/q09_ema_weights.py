import copy

import torch
import torch.nn as nn

torch.manual_seed(0)


def ema_update(ema_params, model, decay=0.99):
    for ema_p, p in zip(ema_params, model.parameters()):
        ema_p.mul_(decay).add_(p * (1.0 - decay))  # expect: TEN501


@torch.no_grad()
def ema_update_fixed(ema_model, model, decay=0.99):
    for ema_p, p in zip(ema_model.parameters(), model.parameters()):
        ema_p.mul_(decay).add_(p, alpha=1.0 - decay)  # ok


def main():
    model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))
    ema_params = [p.detach().clone() for p in model.parameters()]
    ema_model = copy.deepcopy(model).requires_grad_(False)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    ema_norms = []
    for step in range(10):
        x = torch.randn(32, 4)
        y = x[:, :1] * 2 - x[:, 1:2]
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        ema_update(ema_params, model)
        ema_update_fixed(ema_model, model)
        ema_norms.append(sum(p.norm() for p in ema_params))  # expect: TEN501
    print("loss", round(loss.item(), 4))
    print("ema norm", round(sum(float(p.norm()) for p in ema_params), 4),
          round(sum(p.norm().item() for p in ema_model.parameters()), 4))


if __name__ == "__main__":
    main()
