import math
import torch
from torch import nn

torch.manual_seed(0)


class RollbackTrainer:
    """Reverts to the last good weights whenever the loss spikes."""

    def __init__(self, net, lr):
        self.net = net
        self.opt = torch.optim.SGD(net.parameters(), lr=lr)
        self._last_good = None
        self._last_loss = math.inf
        self.rollbacks = 0

    def _checkpoint(self, loss):
        self._last_good = dict(self.net.state_dict())  # expect: TEN402
        self._last_loss = loss

    def weight_norm(self):
        sd = self.net.state_dict()  # ok
        return sum(v.norm() ** 2 for v in sd.values()).sqrt().item()

    def step(self, xb, yb, spike):
        self.opt.zero_grad()
        loss = nn.functional.mse_loss(self.net(xb), yb)
        loss.backward()
        if spike:
            for p in self.net.parameters():
                p.grad.mul_(300.0)
        self.opt.step()
        with torch.no_grad():
            new_loss = nn.functional.mse_loss(self.net(xb), yb).item()
        if new_loss > 1.5 * self._last_loss:
            self.net.load_state_dict(self._last_good)
            self.rollbacks += 1
            return self._last_loss
        self._checkpoint(new_loss)
        return new_loss


net = nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Linear(8, 1))
tr = RollbackTrainer(net, lr=0.05)
X = torch.randn(96, 5)
Y = X.sum(1, keepdim=True).sin()
for it in range(30):
    l = tr.step(X, Y, spike=(it % 7 == 6))
    print(f"it {it:2d} loss {l:.5f} |w| {tr.weight_norm():.5f}")
print("rollbacks", tr.rollbacks)
