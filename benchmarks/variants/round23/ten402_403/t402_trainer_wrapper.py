"""A small Trainer class that exposes its model state through helper methods."""
import copy

import torch
import torch.nn as nn


class Trainer:
    def __init__(self, model, lr=0.1):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=lr)

    def get_state(self):
        return self.model.state_dict()  # expect: TEN402

    def export_state(self):
        return copy.deepcopy(self.model.state_dict())  # ok

    def fit_epoch(self, x, y):
        self.opt.zero_grad()
        loss = nn.functional.mse_loss(self.model(x), y)
        loss.backward()
        self.opt.step()
        return loss.item()


torch.manual_seed(0)
x, y = torch.randn(24, 3), torch.randn(24, 1)
trainer = Trainer(nn.Linear(3, 1))
history = {}
best_loss = float("inf")
best = None
best_exported = None
for epoch in range(5):
    loss = trainer.fit_epoch(x, y)
    if epoch == 1:
        best = trainer.get_state()  # either: TEN402
        best_exported = trainer.export_state()  # ok
final = {k: v.clone() for k, v in trainer.model.state_dict().items()}  # ok
print("best vs final (get_state): %.6f" % sum((best[k] - final[k]).abs().sum().item() for k in final))
print("best vs final (export_state): %.6f" % sum((best_exported[k] - final[k]).abs().sum().item() for k in final))
