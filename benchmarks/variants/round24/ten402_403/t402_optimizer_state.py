"""Rollback on loss spike: save model + Adam state, roll back when loss explodes."""
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)


class SpikeGuard:
    def __init__(self, model, opt, factor=1.5):
        self.model, self.opt, self.factor = model, opt, factor
        self.saved_model = None
        self.saved_opt = None
        self.best = float("inf")
        self.rollbacks = 0

    def checkpoint(self):
        self.saved_model = copy.deepcopy(self.model.state_dict())  # ok
        self.saved_opt = self.opt.state_dict()  # expect: TEN402

    def observe(self, loss):
        if loss < self.best:
            self.best = loss
            self.checkpoint()
        elif loss > self.factor * self.best and self.saved_model is not None:
            self.model.load_state_dict(self.saved_model)
            self.opt.load_state_dict(self.saved_opt)
            self.rollbacks += 1


if __name__ == "__main__":
    model = nn.Linear(6, 1)
    opt = torch.optim.Adam(model.parameters(), lr=0.3)
    guard = SpikeGuard(model, opt)
    x = torch.randn(64, 6)
    y = x @ torch.randn(6, 1)
    for step in range(40):
        xb = x[(step * 8) % 64:(step * 8) % 64 + 8]
        yb = y[(step * 8) % 64:(step * 8) % 64 + 8] * (4.0 if step % 9 == 8 else 1.0)
        loss = nn.functional.mse_loss(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        guard.observe(loss.item())
    st = opt.state_dict()["state"][0]
    print(f"rollbacks {guard.rollbacks} step {float(st['step']):.1f}")
    print(f"exp_avg_sq sum {st['exp_avg_sq'].sum().item():.6f}")
    with torch.no_grad():
        print(f"final loss {nn.functional.mse_loss(model(x), y).item():.6f}")
