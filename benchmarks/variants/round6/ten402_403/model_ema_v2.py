"""timm-style ModelEmaV2: keeps a moving-average copy of a model.

Everything here copies correctly; this file is a look-alike negative.
"""
import copy

import torch
from torch import nn


class ModelEmaV2(nn.Module):
    def __init__(self, model, decay=0.9999, device=None):
        super().__init__()
        # make a copy of the model for accumulating moving average of weights
        self.module = copy.deepcopy(model)  # ok
        self.module.eval()
        self.decay = decay
        self.device = device
        if self.device is not None:
            self.module.to(device=device)

    def _update(self, model, update_fn):
        with torch.no_grad():
            for ema_v, model_v in zip(self.module.state_dict().values(), model.state_dict().values()):
                if self.device is not None:
                    model_v = model_v.to(device=self.device)
                ema_v.copy_(update_fn(ema_v, model_v))

    def update(self, model):
        self._update(model, update_fn=lambda e, m: self.decay * e + (1. - self.decay) * m)

    def set(self, model):
        self._update(model, update_fn=lambda e, m: m)

    def forward(self, *args, **kwargs):
        return self.module(*args, **kwargs)


def resume_ema(model, ema, checkpoint_path=None):
    """Re-sync EMA from the live model, e.g. after loading a checkpoint."""
    init_sd = model.state_dict()  # ok
    ema.module.load_state_dict(init_sd)
    if checkpoint_path is not None:
        torch.save(ema.module.state_dict(), checkpoint_path)


if __name__ == "__main__":
    torch.manual_seed(0)
    net = nn.Linear(6, 2)
    ema = ModelEmaV2(net, decay=0.9)
    resume_ema(net, ema)
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    x = torch.randn(16, 6)
    for _ in range(10):
        opt.zero_grad()
        net(x).pow(2).mean().backward()
        opt.step()
        ema.update(net)
    print("ema differs from live:", not torch.allclose(ema.module.weight, net.weight))
