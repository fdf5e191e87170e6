import copy
import torch
import torch.nn as nn

torch.manual_seed(0)


class RollbackTrainer:
    """Takes a snapshot every `every` steps and rolls back when the loss spikes."""

    def __init__(self, model, lr, every=5, spike=1.5):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.5)
        self.every = every
        self.spike = spike
        self._last_good = None
        self._last_good_opt = None
        self._last_loss = None
        self.rollbacks = 0

    def _checkpoint(self, loss):
        self._last_good = dict(self.model.state_dict())  # expect: TEN402
        self._last_good_opt = copy.deepcopy(self.opt.state_dict())  # ok
        self._last_loss = loss

    def _rollback(self):
        self.model.load_state_dict(self._last_good)
        self.opt.load_state_dict(self._last_good_opt)
        for g in self.opt.param_groups:
            g["lr"] *= 0.5
        self.rollbacks += 1

    def train_step(self, step, x, y):
        self.opt.zero_grad()
        loss = nn.functional.mse_loss(self.model(x), y)
        loss.backward()
        self.opt.step()
        l = loss.item()
        if self._last_loss is not None and l > self.spike * self._last_loss:
            self._rollback()
        elif step % self.every == 0:
            self._checkpoint(l)
        return l


x = torch.randn(64, 4)
y = torch.sin(x.sum(1, keepdim=True))
model = nn.Sequential(nn.Linear(4, 24), nn.ReLU(), nn.Linear(24, 1))
tr = RollbackTrainer(model, lr=0.9)
losses = [tr.train_step(s, x, y) for s in range(30)]
print("rollbacks", tr.rollbacks)
print("final lr", tr.opt.param_groups[0]["lr"])
print("last losses", [round(v, 6) for v in losses[-5:]])
with torch.no_grad():
    print(f"final loss {nn.functional.mse_loss(model(x), y).item():.6f}")
