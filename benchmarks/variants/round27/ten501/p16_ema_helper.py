"""Model EMA helper classes (timm/ultralytics style) used by a small trainer."""
import copy
import torch
import torch.nn as nn

torch.manual_seed(0)


class NaiveEMA:
    """Keeps shadow copies of the parameters; update() forgets to disable grad."""

    def __init__(self, model, decay=0.9):
        self.decay = decay
        self.shadow = {n: p.detach().clone() for n, p in model.named_parameters()}

    def update(self, model):
        for n, p in model.named_parameters():
            self.shadow[n] = self.decay * self.shadow[n] + (1.0 - self.decay) * p


class ModelEmaV2(nn.Module):
    def __init__(self, model, decay=0.9):
        super().__init__()
        self.module = copy.deepcopy(model).eval()
        self.decay = decay

    @torch.no_grad()
    def update(self, model):
        for e, m in zip(self.module.state_dict().values(), model.state_dict().values()):
            e.copy_(self.decay * e + (1.0 - self.decay) * m)


class Trainer:
    def __init__(self):
        self.model = nn.Sequential(nn.Linear(3, 10), nn.ReLU(), nn.Linear(10, 1))
        self.opt = torch.optim.SGD(self.model.parameters(), lr=0.05)
        self.ema = NaiveEMA(self.model)
        self.ema_v2 = ModelEmaV2(self.model)

    def train_step(self, x, y):
        loss = nn.functional.mse_loss(self.model(x), y)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.ema.update(self.model)  # expect: TEN501
        self.ema_v2.update(self.model)  # ok
        return loss.item()


tr = Trainer()
for step in range(10):
    x = torch.randn(16, 3)
    l = tr.train_step(x, x.sum(1, keepdim=True))
print("loss", round(l, 4))
print("ema w0", round(tr.ema.shadow["0.weight"].sum().item(), 4),
      round(tr.ema_v2.module[0].weight.sum().item(), 4))
