"""Stochastic Weight Averaging done by hand (running average of the iterates after swa_start),
next to torch.optim.swa_utils.AveragedModel."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim.swa_utils import AveragedModel

torch.manual_seed(0)
torch.set_num_threads(1)

SWA_START, EPOCHS = 10, 30


def data():
    g = torch.Generator().manual_seed(8)
    x = torch.randn(300, 10, generator=g)
    y = torch.tanh(x @ torch.randn(10, 1, generator=g)) + 0.3 * torch.randn(300, 1, generator=g)
    return x, y


def manual_swa():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = data()
    swa_params, n_avg = None, 0
    for epoch in range(EPOCHS):
        for i in range(0, 300, 30):
            opt.zero_grad()
            F.mse_loss(model(x[i:i + 30]), y[i:i + 30]).backward()
            opt.step()
        if epoch == SWA_START:
            swa_params = [p.data for p in model.parameters()]  # expect: TEN402
            n_avg = 1
        elif epoch > SWA_START:
            with torch.no_grad():
                for q, p in zip(swa_params, model.parameters()):
                    q.mul_(n_avg / (n_avg + 1)).add_(p.detach() / (n_avg + 1))
            n_avg += 1
    with torch.no_grad():
        final = F.mse_loss(model(x), y).item()
        for p, q in zip(model.parameters(), swa_params):
            p.copy_(q)
        swa = F.mse_loss(model(x), y).item()
    print(f"manual SWA : final iterate loss={final:.5f} swa loss={swa:.5f}")


def library_swa():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = data()
    swa_model = AveragedModel(model)  # ok
    for epoch in range(EPOCHS):
        for i in range(0, 300, 30):
            opt.zero_grad()
            F.mse_loss(model(x[i:i + 30]), y[i:i + 30]).backward()
            opt.step()
        if epoch >= SWA_START:
            swa_model.update_parameters(model)
    with torch.no_grad():
        print(f"AveragedModel: final iterate loss={F.mse_loss(model(x), y).item():.5f} "
              f"swa loss={F.mse_loss(swa_model(x), y).item():.5f}")


if __name__ == "__main__":
    manual_swa()
    library_swa()
