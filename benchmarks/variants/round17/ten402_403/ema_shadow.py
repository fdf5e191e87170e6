"""Exponential moving average of weights used for evaluation."""
import copy

import torch
from torch import nn

torch.manual_seed(0)
torch.set_num_threads(1)

DECAY = 0.9


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(6, 12)
        self.norm = nn.LayerNorm(12)
        self.out = nn.Linear(12, 2)

    def forward(self, x):
        return self.out(self.norm(self.body(x)).relu())


def main():
    model = Net()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    shadow = dict(model.state_dict())  # expect: TEN402
    ema_model = copy.deepcopy(model).requires_grad_(False)  # ok
    x = torch.randn(64, 6)
    y = torch.stack([x[:, 0] * x[:, 1], x[:, 2]], 1)
    for step in range(25):
        opt.zero_grad()
        nn.functional.mse_loss(model(x), y).backward()
        opt.step()
        with torch.no_grad():
            for k, v in model.state_dict().items():
                shadow[k].mul_(DECAY).add_(v, alpha=1 - DECAY)
            for e, p in zip(ema_model.parameters(), model.parameters()):
                e.lerp_(p, 1 - DECAY)  # ok
    eval_net = Net()
    eval_net.load_state_dict(shadow)
    gap = sum((a - b).abs().sum() for a, b in zip(eval_net.parameters(), model.parameters()))
    gap2 = sum((a - b).abs().sum() for a, b in zip(ema_model.parameters(), model.parameters()))
    print(f"dict-shadow gap {gap.item():.5f} | deepcopy-ema gap {gap2.item():.5f}")


if __name__ == "__main__":
    main()
