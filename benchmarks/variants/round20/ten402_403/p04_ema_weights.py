"""Exponential moving average of weights kept as a plain dict of tensors."""
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class WeightEMA:
    def __init__(self, model, decay=0.9, share=True):
        self.decay = decay
        if share:
            self.shadow = {k: v.detach() for k, v in model.state_dict().items()}  # expect: TEN402
        else:
            self.shadow = {k: v.detach().clone() for k, v in model.state_dict().items()}  # ok

    @torch.no_grad()
    def update(self, model):
        for k, v in model.state_dict().items():
            self.shadow[k].mul_(self.decay).add_(v, alpha=1 - self.decay)


def fit(share):
    torch.manual_seed(0)
    model = nn.Linear(5, 3)
    teacher = copy.deepcopy(model)  # ok
    opt = torch.optim.SGD(model.parameters(), lr=0.2)
    ema = WeightEMA(model, share=share)
    x, y = torch.randn(40, 5), torch.randn(40, 3)
    for _ in range(15):
        opt.zero_grad()
        nn.functional.mse_loss(model(x), y).backward()
        opt.step()
        ema.update(model)
    gap = (ema.shadow["weight"] - model.weight).norm().item()
    tgap = (teacher.weight - model.weight).norm().item()
    print(f"share={share} ema_vs_live={gap:.5f} deepcopy_teacher_vs_live={tgap:.5f}")


fit(True)
fit(False)
