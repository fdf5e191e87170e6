"""Roll model *and* optimizer back to the last good state when the loss spikes."""
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class RollbackGuard:
    def __init__(self, model, optimizer, spike=5.0):
        self.model, self.opt, self.spike = model, optimizer, spike
        self.model_backup = None
        self.opt_backup = None
        self.last_good = None

    def save(self, loss):
        self.model_backup = copy.deepcopy(self.model.state_dict())  # ok
        self.opt_backup = self.opt.state_dict()  # expect: TEN402
        self.last_good = loss

    def check(self, loss):
        if self.last_good is not None and loss > self.spike * self.last_good:
            self.model.load_state_dict(self.model_backup)
            self.opt.load_state_dict(self.opt_backup)
            return True
        return False


class SafeRollbackGuard(RollbackGuard):
    def save(self, loss):
        self.model_backup = copy.deepcopy(self.model.state_dict())  # ok
        self.opt_backup = copy.deepcopy(self.opt.state_dict())  # ok
        self.last_good = loss


def run(guard_cls):
    torch.manual_seed(0)
    model = nn.Linear(6, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9)
    guard = guard_cls(model, opt)
    x, y = torch.randn(64, 6), torch.randn(64, 1)
    rollbacks = 0
    for step in range(24):
        xb = x if step != 13 else x * 6.0           # a corrupted batch
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(xb), y)
        loss.backward()
        opt.step()
        with torch.no_grad():
            after = nn.functional.mse_loss(model(x), y).item()
        if guard.check(after):
            rollbacks += 1
        elif step % 4 == 3:
            guard.save(after)
    momentum = opt.state[model.weight]["momentum_buffer"].norm().item()
    return rollbacks, round(after, 4), round(momentum, 4)


if __name__ == "__main__":
    print("shallow optimizer backup", run(RollbackGuard))
    print("deep optimizer backup   ", run(SafeRollbackGuard))
