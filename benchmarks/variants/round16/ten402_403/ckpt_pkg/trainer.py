import torch
import torch.nn.functional as F

from . import snapshots


class BaseTrainer:
    def __init__(self, model, lr=0.05):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
        self.history = []
        self.best_loss = float("inf")
        self.best = None
        self.start_blob = snapshots.to_bytes(model)
        self._anchor = getattr(model, "state_dict")()  # expect: TEN402

    def loss(self, x, y):
        return F.cross_entropy(self.model(x), y)

    def epoch(self, x, y, bs=32):
        self.model.train()
        for i in range(0, len(x), bs):
            self.opt.zero_grad()
            self.loss(x[i:i + bs], y[i:i + bs]).backward()
            self.opt.step()

    @torch.no_grad()
    def validate(self, x, y):
        self.model.eval()
        v = F.cross_entropy(self.model(x), y).item()
        self.history.append(v)
        if v < self.best_loss:
            self.best_loss = v
            self.best = snapshots.live_state(self.model)  # expect: TEN402
            self.best_opt = snapshots.optimizer_state(self.opt)  # ok
        return v

    def restore_best(self):
        self.model.load_state_dict(self.best)
        self.opt.load_state_dict(self.best_opt)

    def restart(self):
        snapshots.from_bytes(self.model, self.start_blob)
