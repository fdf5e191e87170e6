import math
import torch
import torch.nn as nn

torch.manual_seed(0)


def sample_task():
    amp = torch.empty(1).uniform_(0.5, 2.0).item()
    phase = torch.empty(1).uniform_(0, math.pi).item()
    return lambda x: amp * torch.sin(x + phase)


class Reptile:
    def __init__(self, model, inner_lr=0.02, inner_steps=8, meta_lr=0.5):
        self.model = model
        self.inner_lr = inner_lr
        self.inner_steps = inner_steps
        self.meta_lr = meta_lr

    def meta_step(self, task):
        old = {n: p.data for n, p in self.model.named_parameters()}  # expect: TEN402
        inner = torch.optim.SGD(self.model.parameters(), lr=self.inner_lr)
        for _ in range(self.inner_steps):
            x = torch.rand(10, 1) * 10 - 5
            inner.zero_grad()
            nn.functional.mse_loss(self.model(x), task(x)).backward()
            inner.step()
        with torch.no_grad():
            for n, p in self.model.named_parameters():
                p.copy_(old[n] + self.meta_lr * (p - old[n]))


class FirstOrderMAMLish(Reptile):
    def meta_step(self, task):
        start = {n: p.detach().clone() for n, p in self.model.named_parameters()}  # ok
        inner = torch.optim.SGD(self.model.parameters(), lr=self.inner_lr)
        for _ in range(self.inner_steps):
            x = torch.rand(10, 1) * 10 - 5
            inner.zero_grad()
            nn.functional.mse_loss(self.model(x), task(x)).backward()
            inner.step()
        with torch.no_grad():
            for n, p in self.model.named_parameters():
                p.copy_(start[n] + self.meta_lr * (p - start[n]))


def run(cls):
    torch.manual_seed(1)
    model = nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 1))
    learner = cls(model)
    for _ in range(30):
        learner.meta_step(sample_task())
    x = torch.linspace(-5, 5, 50).unsqueeze(1)
    with torch.no_grad():
        return model(x).abs().mean().item(), sum(p.norm().item() for p in model.parameters())


for cls in (Reptile, FirstOrderMAMLish):
    out, norm = run(cls)
    print(f"{cls.__name__}: mean|f| {out:.6f} param norm {norm:.6f}")
