"""Class-level attributes used as shared logs across instances and steps."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class Stats:
    losses = []
    items = []
    count = 0
    total = torch.zeros(())


class Worker:
    history = []
    seen_shapes = []

    def __init__(self, model, opt):
        self.model = model
        self.opt = opt

    def step(self, x, y):
        out = self.model(x)
        loss = F.binary_cross_entropy_with_logits(out.squeeze(1), y)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        Stats.losses.append(loss)  # expect: TEN501
        Stats.items.append(loss.item())  # ok
        Stats.count += 1  # ok
        Stats.total = Stats.total + loss.detach()  # ok
        self.__class__.history.append(out.sum())  # expect: TEN501
        type(self).seen_shapes.append(tuple(out.shape))  # ok
        return loss


model = nn.Linear(6, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.3)
workers = [Worker(model, opt) for _ in range(2)]
for i in range(10):
    x = torch.randn(12, 6)
    y = (x[:, 0] > 0).float()
    workers[i % 2].step(x, y)

print("count", Stats.count, "avg", round(float(Stats.total) / Stats.count, 4), round(Stats.items[-1], 4))
print("losses", len(Stats.losses), "history", len(Worker.history), round(float(Worker.history[-1]), 4), Worker.seen_shapes[0])
