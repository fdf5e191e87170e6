"""Track the update-to-weight ratio of each layer during training."""
import torch
from torch import nn

torch.manual_seed(0)
torch.set_num_threads(1)


class UpdateRatioMonitor:
    def __init__(self, model, copy_weights):
        self.model = model
        self.copy_weights = copy_weights
        self.history = []

    def before_step(self):
        if self.copy_weights:
            self._prev = [p.detach().clone() for p in self.model.parameters()]  # ok
        else:
            self._prev = [p.detach() for p in self.model.parameters()]  # expect: TEN402
        self._norms = [p.norm().item() for p in self.model.parameters()]  # ok

    def after_step(self):
        ratios = [((p - q).norm() / (n + 1e-12)).item()
                  for p, q, n in zip(self.model.parameters(), self._prev, self._norms)]
        self.history.append(ratios)


def train(copy_weights):
    torch.manual_seed(3)
    model = nn.Sequential(nn.Linear(7, 21), nn.ReLU(), nn.Linear(21, 1))
    opt = torch.optim.RMSprop(model.parameters(), lr=1e-2)
    mon = UpdateRatioMonitor(model, copy_weights)
    x = torch.randn(100, 7)
    y = x.abs().sum(1, keepdim=True)
    for _ in range(20):
        opt.zero_grad()
        nn.functional.mse_loss(model(x), y).backward()
        mon.before_step()
        opt.step()
        mon.after_step()
    return [round(sum(col) / len(col), 5) for col in zip(*mon.history)]


if __name__ == "__main__":
    print("aliased prev:", train(False))
    print("cloned prev: ", train(True))
