# Stochastic weight averaging, once by hand and once with torch.optim.swa_utils.
import torch
import torch.nn as nn
from torch.optim.swa_utils import AveragedModel

torch.manual_seed(0)
torch.set_num_threads(1)


class ManualSWA:
    def __init__(self, model):
        self.model = model
        self.count = 1
        self.avg = [p for p in model.parameters()]  # expect: TEN402

    @torch.no_grad()
    def update(self):
        for a, p in zip(self.avg, self.model.parameters()):
            a.mul_(self.count / (self.count + 1)).add_(p, alpha=1.0 / (self.count + 1))
        self.count += 1

    @torch.no_grad()
    def averaged_into(self, target):
        for a, q in zip(self.avg, target.parameters()):
            q.copy_(a)
        return target


def build():
    return nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 1))


def data(n):
    x = torch.randn(n, 4)
    return x, (x[:, :1] * x[:, 1:2] + x[:, 2:3].abs()) + 0.2 * torch.randn(n, 1)


def mse(model, x, y):
    with torch.no_grad():
        return nn.functional.mse_loss(model(x), y).item()


def sgd_phase(model, x, y, opt, steps):
    for _ in range(steps):
        idx = torch.randint(0, len(x), (32,))
        opt.zero_grad()
        nn.functional.mse_loss(model(x[idx]), y[idx]).backward()
        opt.step()


def main():
    x, y = data(512)
    xv, yv = data(256)

    torch.manual_seed(1)
    model = build()
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    sgd_phase(model, x, y, opt, 300)
    manual = ManualSWA(model)
    for cycle in range(8):
        sgd_phase(model, x, y, opt, 25)
        manual.update()
    out = manual.averaged_into(build())
    print("manual SWA val mse %.4f (live model %.4f)" % (mse(out, xv, yv), mse(model, xv, yv)))

    torch.manual_seed(1)
    model = build()
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    sgd_phase(model, x, y, opt, 300)
    swa = AveragedModel(model)  # ok
    for cycle in range(8):
        sgd_phase(model, x, y, opt, 25)
        swa.update_parameters(model)
    swa_state = swa.module.state_dict()  # ok
    evaluator = build()
    evaluator.load_state_dict(swa_state)
    print("AveragedModel val mse %.4f (live model %.4f)" % (mse(evaluator, xv, yv), mse(model, xv, yv)))


if __name__ == "__main__":
    main()
