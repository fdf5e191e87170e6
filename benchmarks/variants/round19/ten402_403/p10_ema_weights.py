"""Exponential moving average of weights for evaluation."""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class ModelEMA:
    def __init__(self, model, decay=0.9):
        self.decay = decay
        self.shadow = {k: v.detach().clone() for k, v in model.state_dict().items()}  # ok
        self.backup = {}

    @torch.no_grad()
    def update(self, model):
        for k, v in model.state_dict().items():
            if v.dtype.is_floating_point:
                self.shadow[k].mul_(self.decay).add_(v, alpha=1 - self.decay)

    def apply_to(self, model):
        self.backup = model.state_dict()  # expect: TEN402
        model.load_state_dict(self.shadow)

    def restore(self, model):
        model.load_state_dict(self.backup)


class ModelEMANaive(ModelEMA):
    def __init__(self, model, decay=0.9):
        super().__init__(model, decay)
        self.shadow = model.state_dict()  # expect: TEN402


net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
ema = ModelEMA(net)
naive = ModelEMANaive(net)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
x, y = torch.randn(32, 4), torch.randn(32, 1)
for _ in range(10):
    opt.zero_grad()
    ((net(x) - y) ** 2).mean().backward()
    opt.step()
    ema.update(net)
    naive.update(net)

train_w = net[0].weight.detach().clone()
ema.apply_to(net)
ema_eval = ((net(x) - y) ** 2).mean().item()
ema.restore(net)
print(f"ema loss {ema_eval:.4f}; restored == trained: {torch.equal(net[0].weight, train_w)}")
print("naive shadow equals live:", torch.equal(naive.shadow["0.weight"], net[0].weight.detach()))
