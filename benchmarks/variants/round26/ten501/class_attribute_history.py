"""Trainer keeps global training statistics on class attributes."""
import torch
import torch.nn as nn

torch.manual_seed(0)


class RunStats:
    history = []
    last_values = []
    steps = 0


class GlobalBest:
    best_logits = {}


class Trainer:
    def __init__(self, model):
        self.model = model
        self.opt = torch.optim.Adagrad(model.parameters(), lr=0.1)

    def _record(self, loss, logits, step):
        RunStats.history.append(loss)  # expect: TEN501
        RunStats.last_values.append(float(loss))  # ok
        RunStats.steps += 1
        GlobalBest.best_logits[step] = logits  # expect: TEN501

    def fit(self, data, epochs=2):
        for _ in range(epochs):
            for step, (x, y) in enumerate(data):
                logits = self.model(x)
                loss = nn.functional.cross_entropy(logits, y)
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
                self._record(loss, logits, step)


data = [(torch.randn(8, 6), torch.randint(0, 2, (8,))) for _ in range(5)]
Trainer(nn.Linear(6, 2)).fit(data)
print(RunStats.steps, [round(v, 4) for v in RunStats.last_values[-3:]], len(RunStats.history), len(GlobalBest.best_logits))
