"""ModelCheckpoint-like callback that keeps the k best scores and the best loss."""
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)


class ModelCheckpoint:
    def __init__(self, k=3):
        self.k = k
        self.best_k = []
        self.best_score = None
        self.best_state = None

    def on_validation_end(self, epoch, monitor, model):
        self.best_k.append((monitor, epoch))
        self.best_k.sort(key=lambda t: float(t[0]))
        self.best_k = self.best_k[: self.k]
        if self.best_score is None or monitor < self.best_score:
            self.best_score = monitor
            self.best_state = copy.deepcopy(model.state_dict())


def validation_loss(model, xv, yv, grad_enabled):
    with torch.set_grad_enabled(grad_enabled):
        return nn.functional.mse_loss(model(xv), yv)


net = nn.Sequential(nn.Linear(4, 10), nn.ReLU(), nn.Linear(10, 1))
opt = torch.optim.Adam(net.parameters(), lr=5e-3)
ckpt, ckpt_ok = ModelCheckpoint(k=6), ModelCheckpoint(k=6)
x, y = torch.randn(50, 4), torch.randn(50, 1)
xv, yv = torch.randn(20, 4), torch.randn(20, 1)
for epoch in range(8):
    loss = nn.functional.mse_loss(net(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    ckpt.on_validation_end(epoch, validation_loss(net, xv, yv, grad_enabled=True), net)  # expect: TEN501
    ckpt_ok.on_validation_end(epoch, validation_loss(net, xv, yv, grad_enabled=False), net)  # ok
print([(round(float(s), 4), e) for s, e in ckpt.best_k], [(round(float(s), 4), e) for s, e in ckpt_ok.best_k])
