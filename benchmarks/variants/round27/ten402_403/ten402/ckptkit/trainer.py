import copy
import torch
import torch.nn as nn

from .averaging import ManualSWA
from .callbacks import BestKeeper, PeriodicKeeper
from .snapshot import capture_optimizer


class Trainer:
    def __init__(self, model, lr=0.3):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.8)
        self.initial = copy.deepcopy(model.state_dict())  # ok
        self.anchor = model.state_dict()  # expect: TEN402
        self.opt_anchor = capture_optimizer(self.opt)
        self.best = BestKeeper("min")
        self.periodic = PeriodicKeeper(every=10)
        self.swa = ManualSWA()

    def loss(self, X, Y):
        return nn.functional.mse_loss(self.model(X), Y)

    def fit(self, X, Y, Xv, Yv, steps):
        for step in range(steps):
            self.opt.zero_grad()
            self.loss(X, Y).backward()
            self.opt.step()
            with torch.no_grad():
                v = self.loss(Xv, Yv).item()
            self.best.update(v, self.model)
            self.periodic.update(step, self.model)
            if step >= steps // 2 and step % 5 == 0:
                self.swa.collect(self.model)

    def reset_to_anchor(self):
        self.model.load_state_dict(self.anchor)
        self.opt.load_state_dict(self.opt_anchor)
