"""A Flower/Keras-like model wrapper with get_weights/set_weights."""
import torch
import torch.nn as nn


class ModelWrapper:
    def __init__(self, net):
        self.net = net

    def get_weights(self):
        return [p.data for p in self.net.parameters()]  # expect: TEN402

    def get_weights_copy(self):
        return [p.data.clone() for p in self.net.parameters()]  # ok

    @torch.no_grad()
    def set_weights(self, weights):
        for p, w in zip(self.net.parameters(), weights):
            p.copy_(w)

    def fit(self, x, y, steps):
        opt = torch.optim.SGD(self.net.parameters(), lr=0.1)
        for _ in range(steps):
            opt.zero_grad()
            nn.functional.mse_loss(self.net(x), y).backward()
            opt.step()


torch.manual_seed(0)
w = ModelWrapper(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)))
x = torch.randn(30, 4)
y = torch.stack([x[:, 0] - x[:, 1], x[:, 2] * 0.5], 1)
w0 = w.get_weights()  # either: TEN402
w0c = w.get_weights_copy()
w.fit(x, y, 30)
trained = w.get_weights_copy()
# "interpolate between start and end" -- a common loss-landscape plot
for alpha in (0.0, 0.5, 1.0):
    w.set_weights([(1 - alpha) * a + alpha * b for a, b in zip(w0, trained)])
    with torch.no_grad():
        la = nn.functional.mse_loss(w.net(x), y).item()
    w.set_weights([(1 - alpha) * a + alpha * b for a, b in zip(w0c, trained)])
    with torch.no_grad():
        lb = nn.functional.mse_loss(w.net(x), y).item()
    print(f"alpha {alpha}: loss(get_weights) {la:.6f} loss(copy) {lb:.6f}")
